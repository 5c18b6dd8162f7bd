//! Every number a command-line option takes, with its range, in one place.
//!
//! Each function here is the clap `value_parser` of one kind of option. A refusal states
//! the range, whatever was wrong (a negative number, one too large for any type, a word):
//! clap prints ``invalid value '-1' for '--jobs <N>': expected a whole number from 1 to
//! 1024, got `-1` ``. The options that use them also set `allow_negative_numbers`, so that
//! `--jobs -1` reaches the parser instead of clap's "to pass '-1' as a value, use '-- -1'".
//! The reading itself is [`sargon_core::input::whole_number`] and
//! [`sargon_core::input::seconds`], shared with the library (`sargon:depth=N`).
//!
//! Depths have their own parser ([`parse_depth`]): its messages name both engines' limits.

use sargon_core::input::echo;
use sargon_engines::engines::EngineSpec;

/// [`sargon_core::input::whole_number`], its refusal as the text clap prints.
fn whole_number(text: &str, lo: u64, hi: u64) -> Result<u64, String> {
    sargon_core::input::whole_number(text, lo, hi).map_err(|e| e.to_string())
}

/// [`sargon_core::input::seconds`], its refusal as the text clap prints.
fn seconds(text: &str, most: f64) -> Result<f64, String> {
    sargon_core::input::seconds(text, most).map_err(|e| e.to_string())
}

/// The most workers (`--jobs`) any command takes. More would only cost threads and memory
/// (`--jobs 100000` once spent a minute starting threads); [`workers`] also caps a run at
/// its work and the machine's cores.
pub(crate) const MAX_JOBS: u64 = 1024;

/// The longest time any option takes, in seconds: a week.
pub(crate) const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// A whole number in `lo..=hi` as a `usize`.
fn count(text: &str, lo: u64, hi: u64) -> Result<usize, String> {
    // Every `hi` used here fits a usize on the 64-bit machines the program builds for.
    whole_number(text, lo, hi).map(|n| n as usize)
}

/// `--jobs`: worker threads, 1 to [`MAX_JOBS`], for every command that has it.
pub(crate) fn jobs(text: &str) -> Result<usize, String> {
    count(text, 1, MAX_JOBS)
}

/// How many workers a run starts for `work` items (`usize::MAX`: a server's searches, not
/// known ahead): what `--jobs` asked (default: one per core), but never more than the items
/// nor the machine's cores. Says so on stderr when fewer than asked.
pub(crate) fn workers(asked: Option<usize>, work: usize) -> usize {
    let n = sargon_chess::batch::workers(asked, work);
    if let Some(asked) = asked.filter(|&a| a > n) {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let to_do = if work == usize::MAX {
            String::new()
        } else {
            format!("{work} to do, ")
        };
        eprintln!(
            "note: --jobs {asked}: {n} worker{} ({to_do}{cores} core{})",
            if n == 1 { "" } else { "s" },
            if cores == 1 { "" } else { "s" }
        );
    }
    n
}

/// A count of games (`--games`): 1 to a million. 0 would play nothing and report all well.
pub(crate) fn games(text: &str) -> Result<usize, String> {
    count(text, 1, 1_000_000)
}

/// `--max-moves`: moves per side before a draw is adjudicated, 1 to 10,000 (no game is
/// longer: the fifty-move rule ends one within about 6,000). 0 would score empty games.
pub(crate) fn max_moves(text: &str) -> Result<u32, String> {
    whole_number(text, 1, 10_000).map(|n| n as u32)
}

/// A time per move in milliseconds (`--movetime`, `--opponent-movetime`): 1 ms to a day.
pub(crate) fn milliseconds(text: &str) -> Result<u64, String> {
    whole_number(text, 1, 24 * 3600 * 1000)
}

/// A UCI engine's depth per move (`--opponent-depth`): 1 to 255, the most `go depth` of
/// common engines takes. Sargon as the opponent is checked against its engine's limit.
pub(crate) fn uci_depth(text: &str) -> Result<u32, String> {
    whole_number(text, 1, 255).map(|n| n as u32)
}

/// A node count per move (`--opponent-nodes`): 1 to 10^12.
pub(crate) fn nodes(text: &str) -> Result<u64, String> {
    whole_number(text, 1, 1_000_000_000_000)
}

/// A timeout (`--move-timeout`, `--exec-timeout`): seconds above 0, at most a week.
pub(crate) fn timeout(text: &str) -> Result<f64, String> {
    seconds(text, MAX_SECONDS)
}

/// A byte (`--book-random`): 0 to 255.
pub(crate) fn byte(text: &str) -> Result<u8, String> {
    whole_number(text, 0, 255).map(|n| n as u8)
}

/// A seed (`history games --seed`): any 64-bit number.
pub(crate) fn seed(text: &str) -> Result<u64, String> {
    whole_number(text, 0, u64::MAX)
}

/// A count of positions (`diff --first`): 1 to 10^9 (the input's own size is checked once
/// it is read).
pub(crate) fn positions(text: &str) -> Result<usize, String> {
    count(text, 1, 1_000_000_000)
}

/// The number of shards (`diff --shards`): 1 to [`MAX_SHARDS`], as in `--shard K/N`.
///
/// [`MAX_SHARDS`]: sargon_referee::diff_run::MAX_SHARDS
pub(crate) fn shards(text: &str) -> Result<usize, String> {
    count(text, 1, sargon_referee::diff_run::MAX_SHARDS)
}

/// A size in megabytes (`diff --cache-limit`): 1 MB to 10^9 MB.
pub(crate) fn megabytes(text: &str) -> Result<u64, String> {
    whole_number(text, 1, 1_000_000_000)
}

/// Search-tree nodes kept in memory (`tree --keep-nodes`, `serve --keep-nodes`): 1 to
/// 50 million (about 20 GB at some 400 bytes a node).
pub(crate) fn keep_nodes(text: &str) -> Result<usize, String> {
    count(text, 1, 50_000_000)
}

/// Nodes shown (`tree --max-nodes`): 0 (all) to 50 million.
pub(crate) fn max_nodes(text: &str) -> Result<usize, String> {
    count(text, 0, 50_000_000)
}

/// A ply of the tree (`tree --ply`): 0 (the root) to the port's deepest search.
pub(crate) fn ply(text: &str) -> Result<usize, String> {
    count(text, 0, u64::from(EngineSpec::Port.max_depth()))
}

/// `uci --fixed-depth`: 0 (depth by the clock) to the port's deepest search; the chosen
/// engine's own limit is checked once it is known.
pub(crate) fn fixed_depth(text: &str) -> Result<u8, String> {
    whole_number(text, 0, u64::from(EngineSpec::Port.max_depth())).map(|n| n as u8)
}

/// `serve --port`: a TCP port, 0 (any free one) to 65535.
pub(crate) fn tcp_port(text: &str) -> Result<u16, String> {
    whole_number(text, 0, u64::from(u16::MAX)).map(|n| n as u16)
}

/// `bench --emulator-positions`: 1 to the benchmark's positions.
pub(crate) fn bench_positions(text: &str) -> Result<usize, String> {
    count(
        text,
        1,
        crate::studies::history::BENCHMARK_POSITIONS.len() as u64,
    )
}

/// `history levels --max-level`: 1 to 6, Sargon's levels.
pub(crate) fn level(text: &str) -> Result<u8, String> {
    whole_number(text, 1, 6).map(|n| n as u8)
}

/// `models --example`: 1 to 5, the examples of "A Window into Sargon".
pub(crate) fn example(text: &str) -> Result<u8, String> {
    whole_number(text, 1, 5).map(|n| n as u8)
}

/// `--depth`: a whole number of plies, at least 1. Which depths an engine takes
/// ([`EngineSpec::check_depth`]) each command checks before any work, once it knows the
/// engine.
pub(crate) fn parse_depth(text: &str) -> Result<u8, String> {
    let (port, emulator) = (
        EngineSpec::Port.max_depth(),
        EngineSpec::EMULATOR.max_depth(),
    );
    let too_deep = |d: &str| {
        format!(
            "{d} plies is deeper than either engine searches (the port 1..={port}, the emulator 1..={emulator})"
        )
    };
    match text.trim().parse::<i64>() {
        Ok(d) if (1..=i64::from(u8::MAX)).contains(&d) => Ok(d as u8),
        Ok(d) if d < 1 => Err(format!(
            "a depth is at least 1 ply; {d} asked (the port 1..={port}, the emulator 1..={emulator})"
        )),
        Ok(d) => Err(too_deep(&d.to_string())),
        Err(_) if text.trim().bytes().all(|b| b.is_ascii_digit()) && !text.trim().is_empty() => {
            Err(too_deep(&echo(text.trim())))
        }
        Err(_) => Err(format!(
            "`{}` is not a whole number of plies (the port 1..={port}, the emulator 1..={emulator})",
            echo(text)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths() {
        assert_eq!(parse_depth("3"), Ok(3));
        assert_eq!(parse_depth("255"), Ok(255));
        assert!(parse_depth("0")
            .unwrap_err()
            .contains("at least 1 ply; 0 asked (the port 1..=20, the emulator 1..=6)"));
        assert!(parse_depth("-1")
            .unwrap_err()
            .contains("at least 1 ply; -1 asked (the port 1..=20, the emulator 1..=6)"));
        assert!(parse_depth("300")
            .unwrap_err()
            .contains("deeper than either engine"));
        assert!(parse_depth("99999999999999999999999")
            .unwrap_err()
            .contains("deeper than either engine"));
        assert!(parse_depth("3.5")
            .unwrap_err()
            .contains("not a whole number of plies (the port 1..=20"));
    }

    #[test]
    fn every_option_states_its_range() {
        assert_eq!(
            jobs("-1"),
            Err("expected a whole number from 1 to 1024, got `-1`".into())
        );
        assert_eq!(
            jobs("0").unwrap_err(),
            jobs("1025").unwrap_err().replace("1025", "0")
        );
        assert_eq!(jobs("1024"), Ok(1024));
        assert!(max_moves("0").unwrap_err().contains("from 1 to 10000"));
        assert!(games("0").unwrap_err().contains("from 1 to 1000000"));
        assert!(byte("256").unwrap_err().contains("from 0 to 255"));
        assert!(seed("99999999999999999999999")
            .unwrap_err()
            .contains("from 0 to 18446744073709551615"));
        assert!(timeout("1e20")
            .unwrap_err()
            .contains("above 0 and at most 604800"));
        assert!(tcp_port("65536").unwrap_err().contains("from 0 to 65535"));
        assert_eq!(tcp_port("0"), Ok(0));
        assert_eq!(max_nodes("0"), Ok(0));
        assert!(keep_nodes("0").unwrap_err().contains("from 1 to"));
        assert!(bench_positions("13").unwrap_err().contains("from 1 to 12"));
        assert!(fixed_depth("21").unwrap_err().contains("from 0 to 20"));
    }

    #[test]
    fn workers_never_outnumber_the_work_or_the_cores() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(workers(Some(1000), 3), 3.min(cores));
        assert_eq!(workers(Some(1000), 100_000), cores);
        assert_eq!(workers(Some(1), 100), 1);
        assert_eq!(workers(None, 100_000), cores);
        assert_eq!(workers(Some(5), 0), 1);
    }
}
