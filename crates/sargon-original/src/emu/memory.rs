//! [`SargonMemory`] for the emulator: each variable read at its symbol's address.

use super::emulator::SCRATCH_ENTRY;
use super::symbols::Symbols;

use sargon_core::hooks::{Pointer, SargonMemory, Table, Var};

/// The emulated memory as the hooks' views read it: each variable at its symbol's address.
pub(super) struct EmuMemory<'a> {
    pub(super) mem: &'a [u8],
    pub(super) syms: &'a Symbols,
}

impl EmuMemory<'_> {
    fn word(&self, addr: u16) -> u16 {
        u16::from_le_bytes([
            self.mem[addr as usize],
            self.mem[addr.wrapping_add(1) as usize],
        ])
    }
}

impl SargonMemory for EmuMemory<'_> {
    fn var(&self, var: Var) -> u8 {
        let s = self.syms;
        // M1, M2 and T1 are index words whose low byte is the value.
        let addr = match var {
            Var::Nply => s.nply,
            Var::Plymax => s.plymax,
            Var::Color => s.color,
            Var::P1 => s.p1,
            Var::T1 => s.t1,
            Var::M1 => s.m1,
            Var::M2 => s.m2,
        };
        self.mem[addr as usize]
    }

    fn pointer(&self, pointer: Pointer) -> u16 {
        let s = self.syms;
        self.word(match pointer {
            Pointer::Mlptri => s.mlptri,
            Pointer::Mlptrj => s.mlptrj,
            Pointer::Scrix => s.scrix,
        })
    }

    fn table(&self, table: Table) -> u16 {
        match table {
            Table::Board => self.syms.boarda,
            Table::PlyIndex => self.syms.plyix,
        }
    }

    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }

    // The whole state, at the image's own symbols (M1-M4 and T1-T3 are index words whose
    // low byte, at the symbol, is the value).
    fn state_var(&self, name: &str) -> Option<u8> {
        let i = sargon_core::state::VARIABLES
            .iter()
            .position(|&v| v == name)?;
        let addr = self.syms.state.variables[i]?;
        Some(self.mem[addr as usize])
    }

    fn state_pointer(&self, name: &str) -> Option<u16> {
        let i = sargon_core::state::POINTERS
            .iter()
            .position(|&v| v == name)?;
        Some(self.word(self.syms.state.pointers[i]?))
    }

    fn area(&self, area: sargon_core::state::Area) -> Option<u16> {
        use sargon_core::state::Area;
        match area {
            Area::Tables => self.syms.state.tables,
            Area::Book => self.syms.state.book,
            Area::MoveList => self.syms.state.move_list,
            Area::Scratch => Some(SCRATCH_ENTRY),
        }
    }
}
