//! Which positions one shard of a run takes.
//!
//! Shard K of N takes positions K, K+N, K+2N, ... of the input: interleaved rather than in
//! blocks, so that each shard gets its share of the dear positions (middlegames, deep
//! searches) and of the cheap ones, and the shards of a job array finish at about the same
//! time.
//!
//! On a cluster the shard comes from the scheduler's environment ([`Shard::from_env`]):
//! Slurm job arrays set `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT` (and
//! `SLURM_ARRAY_TASK_MIN`/`MAX`); Kubernetes indexed Jobs set `JOB_COMPLETION_INDEX` but not
//! the number of completions, which the command line then gives.

use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count` (0 <= index < count).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard's number, from 0.
    pub index: usize,
    /// How many shards the input is split into.
    pub count: usize,
}

/// Why a shard cannot be determined.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct ShardError(pub String);

fn err<T>(text: impl Into<String>) -> Result<T, ShardError> {
    Err(ShardError(text.into()))
}

/// The most shards a run is split into (`--shard K/N`, `--shards N`).
pub const MAX_SHARDS: u64 = 1_000_000_000;

impl Shard {
    /// The whole input as one shard.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`; an error unless 0 <= index < count.
    pub(crate) fn new(index: usize, count: usize) -> Result<Shard, ShardError> {
        if count == 0 {
            return err("the number of shards must be at least 1");
        }
        if index >= count {
            return err(format!(
                "shard {index} does not exist among {count} (shards are numbered 0 to {})",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }

    /// Does this shard take the position at `index` of the input?
    pub(crate) fn contains(&self, index: usize) -> bool {
        index % self.count == self.index
    }

    /// The input indices this shard takes, of `len` positions.
    ///
    /// ```
    /// use sargon_referee::diff_run::Shard;
    /// let shard: Shard = "1/3".parse()?;
    /// assert_eq!(shard.indices(8).collect::<Vec<_>>(), [1, 4, 7]);
    /// assert_eq!(Shard::ALL.indices(2).collect::<Vec<_>>(), [0, 1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn indices(&self, len: usize) -> impl Iterator<Item = usize> + use<> {
        (self.index..len).step_by(self.count)
    }

    /// The shard a batch scheduler assigned, from its environment variables (read through
    /// `var`, so that tests need not touch the process environment). `shards` is the
    /// `--shards N` of the command line: required with Kubernetes, checked with Slurm.
    ///
    /// ```
    /// use sargon_referee::diff_run::Shard;
    ///
    /// // A Kubernetes indexed Job: the index from the pod, the count from --shards.
    /// let k8s = |name: &str| (name == "JOB_COMPLETION_INDEX").then(|| "2".to_string());
    /// assert_eq!(Shard::from_env(k8s, Some(4))?.to_string(), "2/4");
    /// assert!(Shard::from_env(k8s, None).is_err()); // Kubernetes does not tell the count
    /// assert!(Shard::from_env(|_| None, None).is_err()); // no scheduler at all
    /// # Ok::<(), sargon_referee::diff_run::ShardError>(())
    /// ```
    pub fn from_env(
        var: impl Fn(&str) -> Option<String>,
        shards: Option<usize>,
    ) -> Result<Shard, ShardError> {
        let number = |name: &str| -> Result<Option<usize>, ShardError> {
            match var(name) {
                None => Ok(None),
                Some(text) => match text.trim().parse::<usize>() {
                    Ok(n) => Ok(Some(n)),
                    Err(_) => err(format!(
                        "{name}={text:?} is not a non-negative whole number"
                    )),
                },
            }
        };
        let slurm_id = number("SLURM_ARRAY_TASK_ID")?;
        let k8s_index = number("JOB_COMPLETION_INDEX")?;
        match (slurm_id, k8s_index) {
            (Some(_), Some(_)) => err(
                "both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set: cannot tell \
                 which scheduler assigned this shard (give --shard K/N instead)",
            ),
            (None, None) => err(
                "--shard-from-env: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor \
                 JOB_COMPLETION_INDEX (a Kubernetes indexed Job) is set",
            ),
            (None, Some(index)) => {
                let Some(count) = shards else {
                    return err("JOB_COMPLETION_INDEX is set but not the number of shards: \
                         Kubernetes does not tell a pod how many completions its Job has, \
                         so pass it as --shards N (the Job's `completions`)");
                };
                Shard::new(index, count).map_err(|e| {
                    ShardError(format!(
                        "JOB_COMPLETION_INDEX={index} with --shards {count}: {e}"
                    ))
                })
            }
            (Some(id), None) => {
                let task_count = number("SLURM_ARRAY_TASK_COUNT")?;
                let min = number("SLURM_ARRAY_TASK_MIN")?;
                let max = number("SLURM_ARRAY_TASK_MAX")?;
                let span = match (min, max) {
                    (Some(min), Some(max)) if max < min => {
                        return err(format!(
                            "SLURM_ARRAY_TASK_MIN={min} is above SLURM_ARRAY_TASK_MAX={max}"
                        ))
                    }
                    (Some(min), Some(max)) => Some((min, max - min + 1)),
                    _ => None,
                };
                let (offset, count) =
                    match (task_count, span) {
                        (Some(count), Some((min, span))) if count != span => {
                            return err(format!(
                            "SLURM_ARRAY_TASK_COUNT={count} but the array runs from {min} to {} \
                             ({span} ids): arrays with a step or gaps (--array=0-15:4, \
                             --array=1,3,5) cannot be split into shards; use --array=0-{}",
                            min + span - 1,
                            count.saturating_sub(1)
                        ))
                        }
                        (Some(count), Some((min, _))) => (min, count),
                        (Some(count), None) => (min.unwrap_or(0), count),
                        (None, Some((min, span))) => (min, span),
                        (None, None) => return err(
                            "SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor \
                             SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_MAX: cannot tell how \
                             many shards there are",
                        ),
                    };
                if id < offset {
                    return err(format!(
                        "SLURM_ARRAY_TASK_ID={id} is below SLURM_ARRAY_TASK_MIN={offset}"
                    ));
                }
                let shard = Shard::new(id - offset, count).map_err(|e| {
                    ShardError(format!(
                        "SLURM_ARRAY_TASK_ID={id} (array from {offset}, {count} tasks): {e}"
                    ))
                })?;
                if let Some(n) = shards
                    && n != count
                {
                    return err(format!(
                        "--shards {n} disagrees with the Slurm array's {count} tasks"
                    ));
                }
                Ok(shard)
            }
        }
    }
}

/// `K/N`, as on the command line.
impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;
    /// `K/N`: shard K (from 0) of N. Each number's refusal states its range, as every
    /// number of the command line does ([`sargon_core::input::whole_number`]).
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = |why: String| {
            ShardError(format!(
                "bad shard `{}`: {why}",
                sargon_core::input::echo(text)
            ))
        };
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| bad("expected K/N, shard K (from 0) of N, e.g. 0/4".into()))?;
        let n = sargon_core::input::whole_number(n, 1, MAX_SHARDS)
            .map_err(|e| bad(format!("N, the number of shards: {e}")))?;
        let k = sargon_core::input::whole_number(k, 0, n - 1)
            .map_err(|e| bad(format!("K, the shard (numbered from 0): {e}")))?;
        Shard::new(k as usize, n as usize).map_err(|e| bad(e.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn shards_cover_every_position_exactly_once() {
        for len in [0, 1, 5, 20] {
            for count in 1..=7 {
                let mut seen = vec![0; len];
                for index in 0..count {
                    let shard = Shard::new(index, count).unwrap();
                    for i in shard.indices(len) {
                        assert!(shard.contains(i));
                        seen[i] += 1;
                    }
                    // Interleaved: consecutive picks of one shard are N apart.
                    let picked: Vec<usize> = shard.indices(len).collect();
                    assert!(picked.windows(2).all(|w| w[1] - w[0] == count));
                }
                assert!(seen.iter().all(|&n| n == 1), "{len} items, {count} shards");
            }
        }
    }

    #[test]
    fn parsed_from_k_over_n() {
        assert_eq!("2/5".parse::<Shard>(), Ok(Shard { index: 2, count: 5 }));
        assert_eq!("0/1".parse::<Shard>(), Ok(Shard::ALL));
        assert_eq!(Shard::new(3, 4).unwrap().to_string(), "3/4");
        for bad in ["5/5", "1/0", "3", "a/b", "-1/4", ""] {
            let e = bad.parse::<Shard>().unwrap_err().0;
            assert!(e.starts_with(&format!("bad shard `{bad}`")), "{e}");
        }
        assert!("5/5".parse::<Shard>().unwrap_err().0.ends_with(
            "K, the shard (numbered from 0): expected a whole number from 0 to 4, got `5`"
        ));
        assert!("1/99999999999999999999"
            .parse::<Shard>()
            .unwrap_err()
            .0
            .contains("N, the number of shards: expected a whole number from 1 to 1000000000"));
        let e = "\u{1b}[1m/4".parse::<Shard>().unwrap_err().0;
        assert!(!e.contains('\u{1b}'), "{e}");
    }

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn slurm_arrays() {
        let shard = |pairs: &[(&str, &str)], shards| Shard::from_env(env(pairs), shards);
        // --array=0-3
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
        ];
        assert_eq!(shard(&vars, None), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(shard(&vars, Some(4)), Ok(Shard { index: 2, count: 4 }));
        assert!(shard(&vars, Some(3)).unwrap_err().0.contains("disagrees"));
        // --array=1-10: ids from 1.
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "10"),
        ];
        assert_eq!(
            shard(&vars, None),
            Ok(Shard {
                index: 0,
                count: 10
            })
        );
        // Only the count: ids from 0.
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "6"),
            ("SLURM_ARRAY_TASK_COUNT", "7"),
        ];
        assert_eq!(shard(&vars, None), Ok(Shard { index: 6, count: 7 }));
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "7"),
            ("SLURM_ARRAY_TASK_COUNT", "7"),
        ];
        assert!(shard(&vars, None).unwrap_err().0.contains("0 to 6"));
        // --array=0-15:4 has 4 tasks over 13 ids.
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "12"),
        ];
        assert!(shard(&vars, None).unwrap_err().0.contains("step or gaps"));
        let vars = [("SLURM_ARRAY_TASK_ID", "4")];
        assert!(shard(&vars, None)
            .unwrap_err()
            .0
            .contains("cannot tell how many shards"));
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "x"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert!(shard(&vars, None)
            .unwrap_err()
            .0
            .contains("SLURM_ARRAY_TASK_ID=\"x\" is not"));
    }

    #[test]
    fn kubernetes_indexed_jobs() {
        let vars = [("JOB_COMPLETION_INDEX", "3")];
        assert_eq!(
            Shard::from_env(env(&vars), Some(5)),
            Ok(Shard { index: 3, count: 5 })
        );
        assert!(Shard::from_env(env(&vars), None)
            .unwrap_err()
            .0
            .contains("--shards N"));
        assert!(Shard::from_env(env(&vars), Some(3))
            .unwrap_err()
            .0
            .contains("JOB_COMPLETION_INDEX=3 with --shards 3"));
        assert!(Shard::from_env(env(&[]), Some(3))
            .unwrap_err()
            .0
            .contains("neither"));
        let both = [("JOB_COMPLETION_INDEX", "1"), ("SLURM_ARRAY_TASK_ID", "1")];
        assert!(Shard::from_env(env(&both), Some(3))
            .unwrap_err()
            .0
            .contains("both"));
    }
}
