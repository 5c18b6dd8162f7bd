//! `sargon cache`: the cache of the original's traces that `sargon diff` keeps, so that a
//! rerun costs only the other side ([`sargon_referee::trace_cache`]).

use std::path::{Path, PathBuf};

use anyhow::Result;

use sargon_referee::trace_cache::{self, CacheSize};

use super::shown;

#[derive(clap::Subcommand, Debug)]
pub(crate) enum CacheCommand {
    /// Where the cache is, how many searches it holds and their size
    Info(CacheDirArgs),
    /// Remove every trace the cache kept (nothing else in the directory is touched)
    Clear(CacheDirArgs),
}

#[derive(clap::Args, Debug)]
pub(crate) struct CacheDirArgs {
    /// The cache directory (default: $SARGON_CACHE, else $XDG_CACHE_HOME/sargon/traces,
    /// else ~/.cache/sargon/traces); the cache's files are in its subdirectory
    /// sargon-trace-cache, and nothing else in it is touched
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
}

/// The cache directory given, or the default one.
pub(super) fn dir(given: Option<&PathBuf>) -> Result<PathBuf> {
    match given {
        Some(dir) => Ok(dir.clone()),
        None => Ok(trace_cache::default_dir()?),
    }
}

/// Megabytes, for people.
pub(super) fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// The sentence about what in `dir` is not the cache's, if anything is.
fn others_line(dir: &Path, others: u64) -> Option<String> {
    (others > 0).then(|| {
        format!(
            "{others} other files or directories in {} are not the cache's: sargon leaves them alone",
            shown(dir)
        )
    })
}

pub(crate) fn run(command: CacheCommand) -> Result<()> {
    match command {
        CacheCommand::Info(args) => {
            let dir = dir(args.cache_dir.as_ref())?;
            let Some(survey) = trace_cache::survey(&dir)? else {
                println!("{}: no cache yet (sargon diff makes it)", shown(&dir));
                return Ok(());
            };
            println!("{}", shown(&dir));
            let size = CacheSize {
                entries: survey.entries.entries + survey.old_layout.entries,
                bytes: survey.entries.bytes + survey.old_layout.bytes,
            };
            println!(
                "{} searches of the original, {} (sargon diff keeps it under --cache-limit, {} by default)",
                size.entries,
                mb(size.bytes),
                mb(trace_cache::DEFAULT_LIMIT)
            );
            if survey.old_layout.entries > 0 {
                println!(
                    "{} of them kept by an earlier sargon at the top of the directory: the next sargon diff moves them into {}",
                    survey.old_layout.entries,
                    trace_cache::OWN_DIR
                );
            }
            if let Some(line) = others_line(&dir, survey.others) {
                println!("{line}");
            }
        }
        CacheCommand::Clear(args) => {
            let dir = dir(args.cache_dir.as_ref())?;
            let Some(cleared) = trace_cache::clear(&dir)? else {
                println!("{}: no cache to clear", shown(&dir));
                return Ok(());
            };
            println!(
                "{}: removed {} searches, {}",
                shown(&dir),
                cleared.removed.entries,
                mb(cleared.removed.bytes)
            );
            if let Some(line) = others_line(&dir, cleared.others) {
                println!("{line}");
            }
        }
    }
    Ok(())
}
