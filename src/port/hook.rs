//! The port's side of the hook points: the state a hook sees ([`SearchState`]).
//!
//! A context is built only when some hook wants the point (callers test the mask first),
//! so an unhooked search pays one bit test per point.

use super::state::Machine;
use crate::base::hooks::{HookPoint, Hooks, SearchState};
use crate::base::vocab::{SMove, Score, BOARD_SIZE};

/// What a hook sees: the machine (read only) and the registers the routine continues with.
struct Ctx<'m> {
    m: &'m Machine,
    point: HookPoint,
    a: u8,
    b: u8,
    compared_with: u8,
}

impl SearchState for Ctx<'_> {
    fn point(&self) -> HookPoint {
        self.point
    }
    fn ply(&self) -> u8 {
        self.m.nply
    }
    fn max_ply(&self) -> u8 {
        self.m.plymax
    }
    fn color(&self) -> u8 {
        self.m.color
    }
    fn a(&self) -> u8 {
        self.a
    }
    fn set_a(&mut self, value: u8) {
        self.a = value;
    }
    fn b(&self) -> u8 {
        self.b
    }
    fn set_b(&mut self, value: u8) {
        self.b = value;
    }
    /// T1 as it stands (0 for a black pawn: MPIECE gives black pawns their own type 0).
    fn piece_type(&self) -> u8 {
        self.m.t1
    }
    fn path_squares(&self) -> (u8, u8) {
        (self.m.m1, self.m.m2)
    }
    fn compared_with(&self) -> Score {
        Score(self.compared_with)
    }
    fn path(&self) -> Vec<SMove> {
        let m = self.m;
        if m.nply == 0 {
            return Vec::new();
        }
        let mut out: Vec<SMove> = (1..m.nply)
            .map(|ply| {
                let slot = m.layout.plyix.wrapping_add(4 * u16::from(ply - 1) + 2);
                m.entry_move(m.rd16(slot))
            })
            .collect();
        out.push(m.entry_move(m.mlptrj));
        out
    }
    fn move_list(&self) -> Vec<SMove> {
        self.m.list_from(self.m.mlptri)
    }
    fn board(&self) -> [u8; BOARD_SIZE] {
        self.m.board_array()
    }
}

impl Machine {
    /// Run the hooks of `point` with A = `a`, B = `b` and the compared score byte; returns
    /// the (possibly changed) A and B.
    pub(crate) fn fire(
        &self,
        hooks: &mut Hooks<'_>,
        point: HookPoint,
        a: u8,
        b: u8,
        compared_with: u8,
    ) -> (u8, u8) {
        let mut ctx = Ctx {
            m: self,
            point,
            a,
            b,
            compared_with,
        };
        hooks.fire(&mut ctx);
        (ctx.a, ctx.b)
    }
}
