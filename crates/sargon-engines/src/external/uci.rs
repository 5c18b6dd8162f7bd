//! `uci:COMMAND`: a port that speaks only UCI ([`UciEngine`]), started once through
//! `sh -c` and asked `position fen ...` and `go depth N` for each search.
//!
//! It has no trace to show, so only its answer is known: the best move and the score of
//! its last `info score`. `sargon diff` compares those answers; `sargon analyze` shows them,
//! the score read back into Sargon's scale ([`score_of`]).

use std::time::{Duration, Instant};

use sargon_core::engine::{
    Capabilities, Capability, Engine, SearchError, SearchOptions, SearchOutcome, SearchStats,
};
use sargon_core::hooks::{Hook, Hooks};
use sargon_core::position::Setup;
use sargon_core::trace::{Detail, Event};
use sargon_core::trace_line::parse_move;
use sargon_core::vocab::Score;

use super::EXTERNAL_MAX_DEPTH;
use crate::uci_client::{ClientError, EngineScore, Limit, UciClient};

/// What a search answers in UCI terms: the best move and the score of the last `info`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move, in UCI text.
    pub best: String,
    /// The score (none: a book move, made without a search, or no `info score` given).
    pub score: Option<EngineScore>,
}

impl Answer {
    /// As a JSON object, for the results file.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "event": "answer",
            "best": self.best,
            "score": self.score.as_ref().map(score_words),
        })
    }
}

/// `cp 25` or `mate 3`, as the `info` line writes it.
fn score_words(score: &EngineScore) -> String {
    match score {
        EngineScore::Cp(cp) => format!("cp {cp}"),
        EngineScore::Mate(n) => format!("mate {n}"),
    }
}

/// `bestmove e2e4 score cp 25`.
impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bestmove {}", self.best)?;
        match &self.score {
            Some(s) => write!(f, " score {}", score_words(s)),
            None => write!(f, " (no score)"),
        }
    }
}

/// A UCI engine behind the [`Engine`] interface.
pub struct UciEngine {
    command: String,
    client: UciClient,
    timeout: Duration,
    /// It offers `OwnBook`, and the value last set.
    own_book: Option<Option<bool>>,
}

impl UciEngine {
    /// Start the engine through `sh -c`, as an `exec:` port is run; `timeout` is each
    /// search's, and the handshake's (`uci`, `isready`).
    pub fn start(command: &str, timeout: Duration) -> Result<UciEngine, ClientError> {
        let mut client = UciClient::spawn_shell(command, timeout)?;
        let offers_book = client
            .options()
            .iter()
            .any(|o| o.eq_ignore_ascii_case("OwnBook"));
        client.ready()?;
        Ok(UciEngine {
            command: command.to_string(),
            client,
            timeout,
            own_book: offers_book.then_some(None),
        })
    }

    /// Its answer to `go depth N` for `setup`, as it gives it. It plays from its own book
    /// (when it offers `OwnBook`) where Sargon would: in a book position with the book on.
    pub fn answer(&mut self, setup: &Setup, depth: u8) -> Result<Answer, ClientError> {
        let book = setup.plays_from_book();
        if let Some(set) = self.own_book
            && set != Some(book)
        {
            self.client
                .set_option("OwnBook", if book { "true" } else { "false" })?;
            self.client.ready()?;
            self.own_book = Some(Some(book));
        }
        let reply = self.client.go(
            &setup.position,
            &[],
            &setup.position,
            &Limit {
                depth: Some(u32::from(depth)),
                ..Limit::default()
            },
            self.timeout,
        )?;
        Ok(Answer {
            best: reply
                .best
                .to_uci(shakmaty::CastlingMode::Standard)
                .to_string(),
            score: reply.score,
        })
    }
}

/// A UCI score (for the side to move) as Sargon's score byte after a search (for the
/// side not to move, [`SearchOutcome::root_score`]): centipawns to eighths of a pawn,
/// rounded, which gives back exactly the byte a Sargon behind `sargon uci` reported; a
/// mate for the side to move as Sargon's mate score.
pub fn score_of(score: EngineScore) -> Score {
    let for_mover = match score {
        EngineScore::Cp(cp) => Score::from_pawns(f64::from(cp) / 100.0),
        EngineScore::Mate(n) if n > 0 => Score(0xff).negated(),
        EngineScore::Mate(_) => Score(0xff),
    };
    for_mover.negated()
}

impl Engine for UciEngine {
    fn id(&self) -> String {
        format!("uci:{}", self.command)
    }

    fn max_depth(&self) -> u8 {
        EXTERNAL_MAX_DEPTH
    }

    /// Only its answers: no trace, no hooks, no data area, no Z80.
    fn capabilities(&self) -> Capabilities {
        Capabilities::default()
    }

    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
    ) -> Result<SearchOutcome, SearchError> {
        self.refuse_hooks(hooks)?;
        self.check_depth(opts.depth)?;
        if opts.stop_requested() {
            return Err(SearchError::Stopped);
        }
        let started = Instant::now();
        let answer = self
            .answer(setup, opts.depth)
            .map_err(|e| SearchError::External(format!("uci: {e}").into()))?;
        let best = parse_move(&answer.best).map_err(|e| {
            SearchError::External(format!("uci: its move {}: {e}", answer.best).into())
        })?;
        Ok(SearchOutcome {
            best: Some(best),
            // No score: a move played without a search (from its book), scored level.
            root_score: answer.score.map_or(Score(0x80), score_of),
            from_book: answer.score.is_none() && setup.plays_from_book(),
            stats: SearchStats {
                wall_us: started.elapsed().as_micros() as u64,
                ..SearchStats::default()
            },
        })
    }

    /// No trace: the result event alone.
    fn trace(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        _detail: Detail,
        extra: &mut [&mut dyn Hook],
        sink: &mut dyn FnMut(Event),
    ) -> Result<SearchOutcome, SearchError> {
        if !extra.is_empty() {
            self.require(Capability::Hooks, "a search with hooks")?;
        }
        let outcome = self.search(setup, opts, &mut Hooks::new())?;
        sink(Event::Result {
            best: outcome.best,
            score: outcome.root_score,
        });
        Ok(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_sargon_reported_reads_back_as_its_byte() {
        for byte in 1..=0xfeu8 {
            let root = Score(byte);
            let cp = root.negated().centipawns();
            assert_eq!(score_of(EngineScore::Cp(cp)), root, "{cp} cp");
        }
        assert!(SearchOutcome {
            best: None,
            root_score: score_of(EngineScore::Mate(2)),
            from_book: false,
            stats: SearchStats::default(),
        }
        .mates());
    }
}
