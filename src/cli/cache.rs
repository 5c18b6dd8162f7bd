//! `sargon cache`: the cache of the original's traces that `sargon diff` keeps, so that a
//! rerun costs only the other side ([`sargon_tools::trace_cache`]).

use std::path::PathBuf;

use anyhow::{Context, Result};

use sargon_tools::trace_cache::{self, TraceCache};

#[derive(clap::Subcommand, Debug)]
pub(crate) enum CacheCommand {
    /// Where the cache is, how many searches it holds and their size
    Info(CacheDirArgs),
    /// Remove every trace in the cache
    Clear(CacheDirArgs),
}

#[derive(clap::Args, Debug)]
pub(crate) struct CacheDirArgs {
    /// The cache directory (default: $SARGON_CACHE, else $XDG_CACHE_HOME/sargon/traces,
    /// else ~/.cache/sargon/traces)
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

pub(crate) fn run(command: CacheCommand) -> Result<()> {
    match command {
        CacheCommand::Info(args) => {
            let dir = dir(args.cache_dir.as_ref())?;
            if !dir.exists() {
                println!("{}: no cache yet (sargon diff makes it)", dir.display());
                return Ok(());
            }
            let cache = TraceCache::open(&dir, trace_cache::DEFAULT_LIMIT)?;
            let size = cache
                .size()
                .with_context(|| format!("cannot read {}", dir.display()))?;
            println!("{}", dir.display());
            println!(
                "{} searches of the original, {} (sargon diff keeps it under --cache-limit, {} by default)",
                size.entries,
                mb(size.bytes),
                mb(trace_cache::DEFAULT_LIMIT)
            );
        }
        CacheCommand::Clear(args) => {
            let dir = dir(args.cache_dir.as_ref())?;
            if !dir.exists() {
                println!("{}: no cache to clear", dir.display());
                return Ok(());
            }
            let cache = TraceCache::open(&dir, trace_cache::DEFAULT_LIMIT)?;
            let removed = cache
                .clear()
                .with_context(|| format!("cannot clear {}", dir.display()))?;
            println!(
                "{}: removed {} searches, {}",
                dir.display(),
                removed.entries,
                mb(removed.bytes)
            );
        }
    }
    Ok(())
}
