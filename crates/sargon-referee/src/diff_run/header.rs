//! The first line of a results file: the run's plan, so that `sargon diff report` can tell
//! what was planned but never ran from the file alone, and `--resume` can refuse to go on
//! with another run's file.

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::report::DepthPlan;

/// What a run set out to do: the input, the depths and the part of it this file holds.
/// Written as `{"plan": {...}}`, the results file's first line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunPlan {
    /// SHA-256 of the `--epd` file's bytes; `None` when the positions were given on the
    /// command line.
    pub epd_sha256: Option<String>,
    /// The positions of the input (all of them, whatever `first` says).
    pub positions: usize,
    /// The depths searched.
    pub depths: Vec<u8>,
    /// `--first N`: only the first N positions are searched.
    pub first: Option<usize>,
    /// The shard, `K/N`.
    pub shard: String,
}

/// The header line as written: the plan under one key no search record has.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HeaderLine {
    pub plan: RunPlan,
}

impl RunPlan {
    /// The SHA-256 of an EPD file's bytes, as a plan records it.
    ///
    /// ```
    /// use sargon_referee::diff_run::RunPlan;
    /// let sha = RunPlan::sha256_of(b"startpos\n");
    /// assert_eq!(sha.len(), 64);
    /// assert_ne!(sha, RunPlan::sha256_of(b"startpos\r\n")); // the bytes, not the positions
    /// assert!(RunPlan::sha256_of(b"").starts_with("e3b0c442")); // SHA-256 of nothing
    /// ```
    pub fn sha256_of(bytes: &[u8]) -> String {
        hex::encode(Sha256::digest(bytes))
    }

    /// The plan as the header line, with its newline.
    pub(crate) fn to_line(&self) -> String {
        let header = HeaderLine { plan: self.clone() };
        let mut line = serde_json::to_string(&header).expect("plain data serialises");
        line.push('\n');
        line
    }

    /// The first difference between this plan and `other`'s, in words, or `None`.
    pub(crate) fn differs_from(&self, other: &RunPlan) -> Option<String> {
        let first = |f: Option<usize>| f.map_or("all".to_string(), |n| format!("the first {n}"));
        if self.epd_sha256 != other.epd_sha256 || self.positions != other.positions {
            Some(format!(
                "its positions are {} ({}), these are {} ({})",
                other.positions,
                other
                    .epd_sha256
                    .as_deref()
                    .unwrap_or("given on the command line"),
                self.positions,
                self.epd_sha256
                    .as_deref()
                    .unwrap_or("given on the command line"),
            ))
        } else if self.depths != other.depths {
            Some(format!(
                "its depths are {:?}, these are {:?}",
                other.depths, self.depths
            ))
        } else if self.first != other.first {
            Some(format!(
                "it searches {} positions, this run {}",
                first(other.first),
                first(self.first)
            ))
        } else if self.shard != other.shard {
            Some(format!(
                "it holds shard {}, this run is shard {}",
                other.shard, self.shard
            ))
        } else {
            None
        }
    }
}

/// Why the plans of a report's files cannot be put together.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// Two files were made from different inputs.
    #[error("the results files come from different inputs: {0}")]
    OtherInput(String),
    /// One depth searched over different numbers of positions.
    #[error("depth {depth} is planned over {a} positions in one file and {b} in another")]
    Depth {
        /// The depth.
        depth: u8,
        /// Positions in one plan.
        a: usize,
        /// Positions in the other.
        b: usize,
    },
}

/// The plan of a whole run from the plans of its files (one per shard, and one per part
/// when depths were run over `--first N` separately): the positions of the input, and
/// each depth over the positions searched at it.
///
/// ```
/// use sargon_referee::diff_run::{header::merge, report::DepthPlan, RunPlan};
/// let plan = |depths: &[u8], first| RunPlan {
///     epd_sha256: None, positions: 100, depths: depths.to_vec(), first, shard: "0/1".into(),
/// };
/// // Depths 1 and 2 over all 100 positions, depth 5 over the first 10.
/// let (positions, depths) = merge(&[plan(&[1, 2], None), plan(&[5], Some(10))])?;
/// assert_eq!(positions, 100);
/// assert_eq!(depths[2], DepthPlan { depth: 5, positions: 10 });
/// // Depth 2 over 100 positions in one file and 10 in another: refused.
/// assert!(merge(&[plan(&[2], None), plan(&[2], Some(10))]).is_err());
/// # Ok::<(), sargon_referee::diff_run::PlanError>(())
/// ```
pub fn merge(plans: &[RunPlan]) -> Result<(usize, Vec<DepthPlan>), PlanError> {
    let mut out: Vec<DepthPlan> = Vec::new();
    let Some(one) = plans.first() else {
        return Ok((0, out));
    };
    for plan in plans {
        if plan.epd_sha256 != one.epd_sha256 || plan.positions != one.positions {
            let why = RunPlan {
                depths: one.depths.clone(),
                first: one.first,
                shard: one.shard.clone(),
                ..plan.clone()
            }
            .differs_from(one)
            .unwrap_or_default();
            return Err(PlanError::OtherInput(why));
        }
        let positions = plan.first.unwrap_or(plan.positions).min(plan.positions);
        for &depth in &plan.depths {
            match out.iter().find(|p| p.depth == depth) {
                Some(p) if p.positions != positions => {
                    return Err(PlanError::Depth {
                        depth,
                        a: p.positions,
                        b: positions,
                    })
                }
                Some(_) => {}
                None => out.push(DepthPlan { depth, positions }),
            }
        }
    }
    out.sort_by_key(|p| p.depth);
    Ok((one.positions, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(depths: &[u8], first: Option<usize>, shard: &str) -> RunPlan {
        RunPlan {
            epd_sha256: Some("ab".repeat(32)),
            positions: 10,
            depths: depths.to_vec(),
            first,
            shard: shard.into(),
        }
    }

    #[test]
    fn the_plans_of_shards_and_parts_make_the_runs_plan() {
        let (n, merged) = merge(&[
            plan(&[1, 2], None, "0/2"),
            plan(&[1, 2], None, "1/2"),
            plan(&[3], Some(4), "0/1"),
        ])
        .unwrap();
        assert_eq!(n, 10);
        assert_eq!(
            merged,
            [
                DepthPlan {
                    depth: 1,
                    positions: 10
                },
                DepthPlan {
                    depth: 2,
                    positions: 10
                },
                DepthPlan {
                    depth: 3,
                    positions: 4
                }
            ]
        );
        let e = merge(&[plan(&[1], None, "0/1"), plan(&[1], Some(3), "0/1")]).unwrap_err();
        assert!(e.to_string().contains("depth 1 is planned over 10"), "{e}");
        let mut other = plan(&[1], None, "0/1");
        other.positions = 11;
        let e = merge(&[plan(&[1], None, "0/1"), other]).unwrap_err();
        assert!(e.to_string().contains("different inputs"), "{e}");
    }

    #[test]
    fn a_plan_names_its_first_difference() {
        let a = plan(&[1, 2], None, "0/1");
        assert_eq!(a.differs_from(&a.clone()), None);
        let b = plan(&[1, 3], None, "0/1");
        assert!(a.differs_from(&b).unwrap().contains("depths"));
        let c = plan(&[1, 2], Some(5), "0/1");
        assert!(a.differs_from(&c).unwrap().contains("the first 5"));
    }
}
