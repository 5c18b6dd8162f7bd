//! The stepping routes' requests and answers (`/api/step`): the original's search run
//! instruction by instruction ([`sargon_original::emu::Stepper`]). Re-exported by
//! [`crate::api`]; fields in alphabetical order, as everywhere in the API.

use serde::{Deserialize, Serialize};

/// `POST /api/step`: open a stepping session on a search, at a node or an event.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepOpenBody {
    /// Stand where this event of the trace arises (0-based), instead of a node.
    #[serde(default)]
    pub event: Option<u64>,
    /// The page's name for the session while it waits for a worker (as `?job=` of the
    /// other views: its place in line at `/api/jobs/{job}`).
    #[serde(default)]
    pub job: Option<String>,
    /// Stand where this node of the search's tree is created (its number, as in
    /// `/api/search/{id}/node/{node}`); neither this nor `event`: at FNDMOV's entry.
    #[serde(default)]
    pub node: Option<u64>,
    /// The page asking: its earlier session is closed.
    #[serde(default)]
    pub page: Option<String>,
    /// The search (its number).
    pub search: u64,
}

/// `POST /api/step/{id}/move`: one move of a session.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepMoveBody {
    /// Backward (`instruction`, `event` and `node` go back; `over` and `out` go back one
    /// instruction).
    #[serde(default)]
    pub back: bool,
    /// `instruction`, `over`, `out`, `event` or `node`; or left out with `event` or
    /// `position`.
    #[serde(default)]
    pub by: Option<String>,
    /// To where this event arises.
    #[serde(default)]
    pub event: Option<u64>,
    /// To this many instructions after FNDMOV's entry.
    #[serde(default)]
    pub position: Option<u64>,
}

/// A byte the last move changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepChange {
    /// Its address.
    pub addr: u16,
    /// The symbol at or below it, and how far past it (`BOARDA+35`), if any.
    pub name: Option<String>,
    /// After.
    pub new: u8,
    /// Before.
    pub old: u8,
}

/// A routine called and not yet returned from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepFrame {
    /// The CALL's address.
    pub call_at: u16,
    /// The routine the CALL is in.
    pub caller: String,
    /// Where it returns to.
    pub return_to: u16,
    /// The routine called.
    pub routine: String,
}

/// The Z80's main registers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepRegisters {
    /// A.
    pub a: u8,
    /// BC.
    pub bc: u16,
    /// DE.
    pub de: u16,
    /// F.
    pub f: u8,
    /// HL.
    pub hl: u16,
    /// IX.
    pub ix: u16,
    /// IY.
    pub iy: u16,
    /// PC.
    pub pc: u16,
    /// SP.
    pub sp: u16,
}

/// One of Sargon's variables, as it stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepVariable {
    /// Its address.
    pub addr: u16,
    /// Whether the last move changed it.
    pub changed: bool,
    /// Its name.
    pub name: String,
    /// Its byte.
    pub value: u8,
}

/// A session as it stands: the answer of every stepping route but close.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepState {
    /// BOARDA's 120 bytes.
    pub board: Vec<u8>,
    /// BOARDA's address.
    pub board_at: u16,
    /// The routines called, outermost first (FNDMOV, the harness's call, not included).
    pub call_stack: Vec<StepFrame>,
    /// How many bytes the last move changed (`changes` lists at most 512).
    pub changed: usize,
    /// The bytes the last move changed.
    pub changes: Vec<StepChange>,
    /// The search's depth.
    pub depth: u8,
    /// The events arising here (before this instruction executes), as `sargon trace`
    /// writes them.
    pub event_texts: Vec<String>,
    /// Events in the trace, the result included.
    pub events: u64,
    /// Events that arose before this point.
    pub events_before: u64,
    /// The flags, `SZ5H3PNC`, a letter where set and `.` where clear.
    pub flags: String,
    /// Whether FNDMOV has returned (the search is over).
    pub finished: bool,
    /// The session's number, in URLs.
    pub id: u64,
    /// Seconds unused after which the session is closed (and its worker freed).
    pub idle_seconds: u64,
    /// The instruction at PC, as the listing writes it.
    pub instruction: String,
    /// The label at or below PC (where the port's citation is looked up).
    pub label: Option<String>,
    /// FNDMOV's instructions: where stepping ends.
    pub length: u64,
    /// Said of a search made by an engine other than the original.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The port's functions that implement the code at PC (`FILE:LINE ITEM`).
    pub port: Vec<String>,
    /// Instructions run since FNDMOV's entry.
    pub position: u64,
    /// The registers.
    pub registers: StepRegisters,
    /// The routine PC is in.
    pub routine: Option<String>,
    /// The search stepped.
    pub search: u64,
    /// Instructions between two snapshots.
    pub snapshot_interval: u64,
    /// Snapshots kept.
    pub snapshots: usize,
    /// Sargon's variables (the whole-state comparison's), with the changed ones marked.
    pub variables: Vec<StepVariable>,
    /// The server's `--jobs` workers, one of which the session holds while open.
    pub workers: usize,
}

/// `POST /api/step/{id}/close`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepClosed {
    /// Whether a session was open under that number.
    pub closed: bool,
    /// The session.
    pub id: u64,
}
