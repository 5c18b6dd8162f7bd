//! Divergences grouped into likely causes, from the recorded events alone.
//!
//! A run over many positions may find a hundred divergences that come from two or three
//! faults of the port. Each divergence is keyed by its first differing event: the event's
//! kind, the routine of the original where that event arises (its hook point: created
//! moves come from GENMOV, called by FNDMOV; scores from POINTS; the decisions from
//! FNDMOV at FM37; see `docs/hooks.md`), and the field that differs and how (a score higher
//! or lower on the right, a decision flipped one way). Divergences with one key are one
//! likely cause. Nothing here knows what a port changed: two faults of one kind in
//! different routines give two causes, and two faults that show in the same field of the
//! same routine the same way give one.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::Value;

use super::contents::{Cause, Finding};
use super::words::plural;

impl Cause {
    /// The cause in a few words: `eval score higher on the right (by +4) in POINTS`.
    ///
    /// ```
    /// use sargon_referee::diff_run::report::{causes, Finding};
    /// use serde_json::json;
    /// let eval = |score: u8| json!({"event": "eval", "ply": 1, "path": ["e1e2"], "score": score});
    /// let found = Finding {
    ///     position: 0, fen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1".into(), depth: 1, event: Some(5),
    ///     left: Some(eval(0x80)), right: Some(eval(0x88)), path: Some(vec!["e1e2".into()]), error: None,
    /// };
    /// let causes = causes(&[found]);
    /// let headline = causes[0].headline();
    /// assert!(headline.starts_with("eval score higher on the right by +8 (-1.000 pawns) at ply 1, in POINTS"));
    /// assert!(headline.ends_with("(hook point points.end)"));
    /// ```
    pub fn headline(&self) -> String {
        let by = match self.deltas {
            Some((lo, hi)) if lo == hi => format!(" by {lo:+} ({})", pawns(lo)),
            Some((lo, hi)) => format!(" by {lo:+} to {hi:+} ({} to {})", pawns(lo), pawns(hi)),
            None => String::new(),
        };
        let plies = match self.plies.as_slice() {
            [] => String::new(),
            [p] => format!(" at ply {p}"),
            ps => format!(
                " at plies {}",
                ps.iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        };
        format!(
            "{} {} {}{by}{plies}, in {}{}",
            self.event,
            self.field,
            self.change,
            self.routine,
            match &self.hook_point {
                Some(p) => format!(" (hook point {p})"),
                None => String::new(),
            }
        )
    }
}

/// A difference of score bytes in pawns (8 units to a pawn; a larger byte is worse for
/// the side it belongs to).
fn pawns(units: i16) -> String {
    format!("{:+.3} pawns", -f64::from(units) / 8.0)
}

/// The hook point and routine of an event kind (see `docs/hooks.md`).
fn origin(kind: &str) -> (Option<&'static str>, &'static str) {
    match kind {
        "created" => (
            Some("movegen.done"),
            "GENMOV (MPIECE, CASTLE, ENPSNT), called by FNDMOV at FM5",
        ),
        "eval" => (
            Some("points.end"),
            "POINTS (and what it calls: ATTACK, XCHNG, PNCK...)",
        ),
        "alpha_beta" => (
            Some("search.alpha_beta"),
            "FNDMOV at FM37 (the cutoff test)",
        ),
        "best_test" => (
            Some("search.best_test"),
            "FNDMOV at FM37+9 (the best-so-far test)",
        ),
        "best" => (
            Some("search.best_confirmed"),
            "FNDMOV at FM37+16 (the best score stored)",
        ),
        "ascend" => (Some("search.ascend"), "ASCEND"),
        "result" => (None, "FNDMOV's end (BESTM and SCORE+1)"),
        "answer" => (
            None,
            "the UCI answer (bestmove, the last info line's score)",
        ),
        _ => (None, "the trace's end"),
    }
}

/// The fields of each kind that say something, in the order they are compared.
const SCORES: [&str; 4] = ["score", "two_above", "negated", "one_above"];
const FLAGS: [&str; 2] = ["cutoff", "accepted"];

/// What divergences of one cause share: the event's kind, the field, how it differs.
type GroupKey = (String, String, String);

struct Key {
    event: String,
    field: String,
    change: String,
    delta: Option<i16>,
    ply: Option<usize>,
}

fn kind_of(e: Option<&Value>) -> String {
    e.and_then(|e| e["event"].as_str())
        .unwrap_or("end")
        .to_string()
}

fn key_of(left: Option<&Value>, right: Option<&Value>) -> Key {
    let (lk, rk) = (kind_of(left), kind_of(right));
    let ply = left
        .or(right)
        .and_then(|e| e["path"].as_array())
        .map(Vec::len);
    let key = |event: &str, field: &str, change: String, delta| Key {
        event: event.to_string(),
        field: field.to_string(),
        change,
        delta,
        ply,
    };
    // A move list that differs shows as a created move against another one, or against
    // the next event when the move was the list's last: either way the list is the cause.
    if lk == "created" || rk == "created" {
        return key("created", "moves", "differ".into(), None);
    }
    let (Some(l), Some(r)) = (left, right) else {
        let change = if right.is_none() {
            "right trace ended"
        } else {
            "right trace goes on"
        };
        return key(&lk, "event", change.into(), None);
    };
    if lk != rk {
        return key(&lk, "event", format!("{rk} on the right"), None);
    }
    for field in ["path", "ply", "best"] {
        if l.get(field) != r.get(field) {
            return key(&lk, field, "differs".into(), None);
        }
    }
    for field in SCORES {
        if let (Some(a), Some(b)) = (l[field].as_i64(), r[field].as_i64())
            && a != b
        {
            let delta = (b - a) as i16;
            let way = if delta > 0 { "higher" } else { "lower" };
            return key(&lk, field, format!("{way} on the right"), Some(delta));
        }
    }
    // A UCI answer's score is words (`cp 25`), not a byte.
    if l.get("score") != r.get("score") {
        return key(&lk, "score", "differs".into(), None);
    }
    for field in FLAGS {
        if let (Some(a), Some(b)) = (l[field].as_bool(), r[field].as_bool())
            && a != b
        {
            return key(
                &lk,
                field,
                format!("{a} on the left, {b} on the right"),
                None,
            );
        }
    }
    key(&lk, "event", "differs".into(), None)
}

/// A recorded event for people: its text line with score bytes written `0x78` and their
/// pawns ([`sargon_core::trace::Event::readable`]); what is not a trace event (the answers
/// of a `uci:` side) as recorded.
pub(super) fn readable(v: &Option<Value>) -> String {
    use sargon_core::trace_line::{parse_trace_line, TraceLine};
    match v {
        Some(v) => match parse_trace_line(&v.to_string()) {
            Ok(TraceLine::Event(e)) => e.readable(),
            _ => v.to_string(),
        },
        None => "(trace ended)".into(),
    }
}

/// The board at a divergence: the example's position with its path played (UCI moves).
fn board_at(fen: &str, path: &[String]) -> Option<String> {
    use shakmaty::{uci::UciMove, Position};
    let mut pos = sargon_core::position::parse_position(fen).ok()?;
    for m in path {
        let mv = m.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(mv);
    }
    Some(sargon_core::position::fen_of(&pos))
}

/// Group `divergences` into likely causes, the largest first (then by the first example's
/// position). Divergences of answers (a `uci:` side) group by their differing field too.
///
/// ```
/// use sargon_referee::diff_run::report::{causes, causes_text, Finding};
/// use serde_json::json;
///
/// let eval = |score: u8| json!({"event": "eval", "ply": 1, "path": ["e1e2"], "score": score});
/// let found = |position, right: u8| Finding {
///     position,
///     fen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1".into(),
///     depth: 1,
///     event: Some(5),
///     left: Some(eval(0x80)),
///     right: Some(eval(right)),
///     path: Some(vec!["e1e2".into()]),
///     error: None,
/// };
/// // Two scores a pawn too high on the right, one a pawn too low: two causes.
/// let causes = causes(&[found(2, 0x88), found(0, 0x78), found(1, 0x88)]);
/// assert_eq!(causes.len(), 2);
/// assert_eq!((causes[0].searches, causes[0].example.position), (2, 1));
/// assert!(causes[0].headline().starts_with("eval score higher on the right by +8"));
/// let text = causes_text(&causes, ("port", "exec"), &|_| vec!["look here".into()]);
/// assert!(text.contains("   port      eval 1 e1e2 : 0x80 (+0.000 pawns)\n"));
/// assert!(text.contains("   look here\n"));
/// ```
pub fn causes(divergences: &[Finding]) -> Vec<Cause> {
    let mut groups: BTreeMap<GroupKey, Vec<(&Finding, Key)>> = BTreeMap::new();
    for d in divergences {
        let k = key_of(d.left.as_ref(), d.right.as_ref());
        groups
            .entry((k.event.clone(), k.field.clone(), k.change.clone()))
            .or_default()
            .push((d, k));
    }
    let mut out: Vec<Cause> = groups
        .into_iter()
        .map(|((event, field, change), mut members)| {
            members.sort_by_key(|(f, _)| (f.position, f.depth));
            let deltas = members.iter().filter_map(|(_, k)| k.delta);
            let deltas = deltas.clone().min().zip(deltas.max());
            let plies: BTreeSet<usize> = members.iter().filter_map(|(_, k)| k.ply).collect();
            let example = members[0].0.clone();
            let (hook_point, routine) = origin(&event);
            Cause {
                board: board_at(&example.fen, example.path.as_deref().unwrap_or(&[])),
                hook_point: hook_point.map(str::to_string),
                routine: routine.to_string(),
                searches: members.len(),
                positions: members
                    .iter()
                    .map(|(f, _)| f.position)
                    .collect::<BTreeSet<_>>()
                    .len(),
                deltas,
                plies: plies.into_iter().collect(),
                example,
                event,
                field,
                change,
            }
        })
        .collect();
    out.sort_by_key(|c| {
        (
            std::cmp::Reverse(c.searches),
            c.example.position,
            c.example.depth,
        )
    });
    out
}

/// The causes as text: a headline each, its worked example, and the lines `look` gives
/// for where to look (the original's listing and the port's function, when the caller has
/// them). `names` are the two sides' short names.
///
/// ```
/// use sargon_referee::diff_run::report::{causes, causes_text, Finding};
/// use serde_json::json;
/// let eval = |score: u8| json!({"event": "eval", "ply": 1, "path": ["e1e2"], "score": score});
/// let found = Finding {
///     position: 0, fen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1".into(), depth: 1, event: Some(5),
///     left: Some(eval(0x80)), right: Some(eval(0x88)), path: Some(vec!["e1e2".into()]), error: None,
/// };
/// let causes = causes(&[found]);
/// let text = causes_text(&causes, ("port", "exec"), &|c| vec![format!("look at {}", c.hook_point.as_deref().unwrap_or("?"))]);
/// assert!(text.starts_with("\nLIKELY CAUSES (1, "));
/// assert!(text.contains(&format!("1. {}: 1 search in 1 position", causes[0].headline())));
/// assert!(text.contains("   look at points.end\n"));
/// assert!(causes_text(&[], ("port", "exec"), &|_| Vec::new()).is_empty());
/// ```
pub fn causes_text(
    causes: &[Cause],
    (left, right): (&str, &str),
    look: &dyn Fn(&Cause) -> Vec<String>,
) -> String {
    let mut s = String::new();
    if causes.is_empty() {
        return s;
    }
    let _ = writeln!(
        s,
        "\nLIKELY CAUSES ({}, grouped by the first differing event; largest first):",
        causes.len()
    );
    for (i, c) in causes.iter().enumerate() {
        let e = &c.example;
        let _ = writeln!(
            s,
            "\n{}. {}: {} in {}; first at position {} depth {}, event #{}",
            i + 1,
            c.headline(),
            plural(c.searches, "search", "searches"),
            plural(c.positions, "position", "positions"),
            e.position,
            e.depth,
            e.event.unwrap_or(0)
        );
        let event = readable;
        let _ = writeln!(s, "   position: {}", e.fen);
        if let Some(path) = &e.path {
            let _ = writeln!(
                s,
                "   path:     {}",
                if path.is_empty() {
                    "(root)".into()
                } else {
                    path.join(" ")
                }
            );
        }
        let _ = writeln!(s, "   {left:<9} {}", event(&e.left));
        let _ = writeln!(s, "   {right:<9} {}", event(&e.right));
        if let Some(board) = &c.board {
            let _ = writeln!(s, "   board:    {board}");
            if let Ok(pos) = sargon_core::position::parse_position(board) {
                let b = sargon_core::position::board_of(&pos);
                for line in sargon_core::position::BoardDiagram(&b).to_string().lines() {
                    let _ = writeln!(s, "     {line}");
                }
            }
        }
        for line in look(c) {
            let _ = writeln!(s, "   {line}");
        }
    }
    s
}

/// The likely causes of the divergences among `records` (the end of a `--keep-going` run).
///
/// ```
/// use sargon_referee::diff_run::report::causes_of_records;
///
/// // Records that agree have no cause to find.
/// assert!(causes_of_records(&[]).is_empty());
/// ```
pub fn causes_of_records(records: &[crate::diff_run::SearchRecord]) -> Vec<Cause> {
    let findings: Vec<Finding> = records
        .iter()
        .filter(|r| r.verdict == crate::diff_run::Verdict::Diverge)
        .map(Finding::of)
        .collect();
    causes(&findings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn finding(position: usize, left: Option<Value>, right: Option<Value>) -> Finding {
        Finding {
            position,
            fen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            depth: 2,
            event: Some(7),
            left,
            right,
            path: Some(vec!["e1e2".into()]),
            error: None,
        }
    }

    fn eval(score: u8) -> Value {
        json!({"event": "eval", "ply": 1, "path": ["e1e2"], "score": score})
    }

    #[test]
    fn a_score_off_one_way_in_one_routine_is_one_cause_and_the_other_way_another() {
        let found = [
            finding(3, Some(eval(0x80)), Some(eval(0x84))),
            finding(1, Some(eval(0x70)), Some(eval(0x76))),
            finding(2, Some(eval(0x70)), Some(eval(0x6f))),
        ];
        let causes = causes(&found);
        assert_eq!(causes.len(), 2);
        assert_eq!(
            (
                causes[0].searches,
                causes[0].deltas,
                causes[0].example.position
            ),
            (2, Some((4, 6)), 1)
        );
        assert_eq!(
            causes[0].headline(),
            "eval score higher on the right by +4 to +6 (-0.500 pawns to -0.750 pawns) at ply 1, \
             in POINTS (and what it calls: ATTACK, XCHNG, PNCK...) (hook point points.end)"
        );
        assert_eq!(causes[1].change, "lower on the right");
        assert_eq!(
            causes[0].board.as_deref(),
            Some("4k3/8/8/8/8/8/4K3/8 b - - 1 1")
        );
    }

    #[test]
    fn a_trace_that_ends_or_turns_to_another_event_is_named_so() {
        let ended = finding(0, Some(eval(0x80)), None);
        let other = finding(
            1,
            Some(eval(0x80)),
            Some(json!({"event": "ascend", "ply": 1})),
        );
        let dropped = finding(
            2,
            Some(json!({"event": "created", "ply": 1, "path": ["e1e2"]})),
            Some(eval(0x80)),
        );
        // A UCI answer's move or score (the only events of a `uci:` side).
        let answer = |best: &str, score: &str| {
            Some(json!({"event": "answer", "best": best, "score": score}))
        };
        let moved = finding(3, answer("e2e4", "cp 25"), answer("d2d4", "cp 25"));
        let scored = finding(4, answer("e2e4", "cp 25"), answer("e2e4", "cp 12"));
        let answers = causes(&[moved, scored]);
        assert_eq!(
            answers
                .iter()
                .map(|c| (c.field.as_str(), c.routine.as_str()))
                .collect::<Vec<_>>(),
            [
                (
                    "best",
                    "the UCI answer (bestmove, the last info line's score)"
                ),
                (
                    "score",
                    "the UCI answer (bestmove, the last info line's score)"
                ),
            ]
        );
        // One each, in the order of their first positions.
        let causes = causes(&[ended, other, dropped]);
        let keys: Vec<(&str, &str, &str)> = causes
            .iter()
            .map(|c| (c.event.as_str(), c.field.as_str(), c.change.as_str()))
            .collect();
        assert_eq!(
            keys,
            [
                ("eval", "event", "right trace ended"),
                ("eval", "event", "ascend on the right"),
                ("created", "moves", "differ"),
            ]
        );
    }
}
