//! The port's side of the hook points: its machine as [`SargonMemory`], and `Machine::fire`.
//!
//! The views a hook sees are built in [`sargon_core::hooks`] over that trait, the same code
//! for both engines; the port only says where its variables and tables are. Callers test
//! the mask first, so an unhooked search pays one bit test per point.

use super::state::{Machine, BMOVES, BOARDA, DIRECT, MLIST, SCRATCH};
use sargon_core::hooks::{HookPoint, Hooks, Pointer, Registers, SargonMemory, Table, Var};
use sargon_core::state::Area;

impl SargonMemory for Machine {
    fn var(&self, var: Var) -> u8 {
        match var {
            Var::Nply => self.nply,
            Var::Plymax => self.plymax,
            Var::Color => self.color,
            Var::P1 => self.p1,
            Var::T1 => self.t1,
            Var::M1 => self.m1,
            Var::M2 => self.m2,
        }
    }

    fn pointer(&self, pointer: Pointer) -> u16 {
        match pointer {
            Pointer::Mlptri => self.mlptri,
            Pointer::Mlptrj => self.mlptrj,
            Pointer::Scrix => self.scrix,
        }
    }

    fn table(&self, table: Table) -> u16 {
        match table {
            Table::Board => BOARDA,
            Table::PlyIndex => self.layout.plyix,
        }
    }

    fn peek(&self, addr: u16) -> u8 {
        self.rd(addr)
    }

    // The whole state: the port keeps every one-byte variable and pointer the comparison
    // reads as a field named after the original's, and its areas in its byte memory.
    fn state_var(&self, name: &str) -> Option<u8> {
        Some(match name {
            "M1" => self.m1,
            "M2" => self.m2,
            "M3" => self.m3,
            "M4" => self.m4,
            "T1" => self.t1,
            "T2" => self.t2,
            "T3" => self.t3,
            "NPINS" => self.npins,
            "KOLOR" => self.kolor,
            "COLOR" => self.color,
            "P1" => self.p1,
            "P2" => self.p2,
            "P3" => self.p3,
            "PMATE" => self.pmate,
            "MOVENO" => self.moveno,
            "PLYMAX" => self.plymax,
            "NPLY" => self.nply,
            "CKFLG" => self.ckflg,
            "MATEF" => self.matef,
            "VALM" => self.valm,
            "BRDC" => self.brdc,
            "PTSL" => self.ptsl,
            "PTSW1" => self.ptsw1,
            "PTSW2" => self.ptsw2,
            "MTRL" => self.mtrl,
            "BC0" => self.bc0,
            "MV0" => self.mv0,
            "PTSCK" => self.ptsck,
            _ => return None,
        })
    }

    fn state_pointer(&self, name: &str) -> Option<u16> {
        Some(match name {
            "MLPTRI" => self.mlptri,
            "MLPTRJ" => self.mlptrj,
            "SCRIX" => self.scrix,
            "BESTM" => self.bestm,
            "MLLST" => self.mllst,
            "MLNXT" => self.mlnxt,
            _ => return None,
        })
    }

    fn area(&self, area: Area) -> Option<u16> {
        Some(match area {
            Area::Tables => DIRECT,
            Area::Book => BMOVES,
            Area::MoveList => MLIST,
            Area::Scratch => SCRATCH,
        })
    }
}

impl Machine {
    /// Run the hooks of `point` with A = `a` and B = `b`; returns the (possibly changed) A
    /// and B.
    ///
    /// `compared_with` is the score-table byte the routine compares A with at the
    /// `search.*` points (0 elsewhere). The views read it themselves through SCRIX, as the
    /// original does through HL; debug builds check that the two agree.
    ///
    /// Move-list links the hooks changed (`movegen.done`) are written here.
    #[inline]
    pub(crate) fn fire(
        &mut self,
        hooks: &mut Hooks<'_>,
        point: HookPoint,
        a: u8,
        b: u8,
        compared_with: u8,
    ) -> (u8, u8) {
        if cfg!(debug_assertions) {
            let at = match point {
                HookPoint::AlphaBeta => Some(self.scrix),
                HookPoint::BestTest | HookPoint::BestConfirmed => Some(self.scrix.wrapping_add(1)),
                _ => None,
            };
            if let Some(at) = at {
                debug_assert_eq!(self.rd(at), compared_with, "{point:?}: SCRIX and HL differ");
            }
        }
        if point != HookPoint::MovegenDone {
            // (No move-list links to write: no list of them to make.)
            let out = hooks.fire(point, &*self, Registers { a, b });
            return (out.a, out.b);
        }
        let out = hooks.fire_all(point, &*self, Registers { a, b });
        for w in &out.link_writes {
            let [lo, hi] = w.value.to_le_bytes();
            self.wr(w.at, lo);
            self.wr(w.at.wrapping_add(1), hi);
        }
        (out.registers.a, out.registers.b)
    }
}
