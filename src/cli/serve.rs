//! `sargon serve`: the explorer's arguments, and what the command prints around the
//! server, which is the library `sargon_explorer`.

use std::net::{IpAddr, SocketAddr};

use anyhow::Result;

use sargon_engines::engines::EngineSpec;
use sargon_explorer::{Config, Server};
use sargon_original::rom::RomStore;

/// `sargon serve`.
#[derive(clap::Args, Debug)]
pub(crate) struct ServeArgs {
    /// Port to listen on (0: any free port)
    #[arg(long, default_value_t = 8078, value_parser = crate::cli::numbers::tcp_port, allow_negative_numbers = true)]
    pub port: u16,
    /// Address to listen on; anything but loopback makes the explorer reachable from other
    /// machines (a warning is printed)
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Open the page in the default browser once the server listens
    #[arg(long)]
    pub open: bool,
    /// ROM to run with the emulator (default: the only one imported, or `sargon`)
    #[arg(long)]
    pub rom: Option<String>,
    #[command(flatten)]
    pub core: crate::cli::CoreArgs,
    /// Searches that run at once (others wait in line)
    #[arg(long, default_value_t = 2, value_parser = crate::cli::numbers::jobs, allow_negative_numbers = true)]
    pub jobs: usize,
    /// Search-tree nodes kept in memory, all searches together (about 400 bytes each); a
    /// search that alone creates more is stopped and the page told how to stream it
    #[arg(long, default_value_t = 1_500_000, value_parser = crate::cli::numbers::keep_nodes, allow_negative_numbers = true)]
    pub keep_nodes: usize,
    /// Another engine to offer in the page's engine choice, besides the port and the
    /// original: `exec:COMMAND` or `uci:COMMAND` (another person's port), given again for
    /// each; a page can choose only these, never name a program itself
    #[arg(long = "engine", value_name = "SPEC", value_parser = crate::cli::parse_engine)]
    pub engines: Vec<EngineSpec>,
    /// A host name (or address) the page may be opened by, besides `127.0.0.1`, `localhost`
    /// and `[::1]`, given again for each: requests naming another host in `Host` or
    /// `Origin` are refused (so that another site cannot reach the server through a name
    /// it controls). With `--bind 0.0.0.0`, name this machine as others reach it
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
}

/// Run the server until Ctrl-C.
pub(crate) fn run(store: &RomStore, args: ServeArgs) -> Result<()> {
    let allow_hosts_given = !args.allow_hosts.is_empty();
    let config = Config {
        store: store.clone(),
        rom: args.rom,
        // The page can always choose the emulator, so `--core` is never refused here.
        core: args.core.core.unwrap_or_default(),
        // Searches wait in line for a worker: more workers than cores would only share them.
        workers: crate::cli::numbers::workers(Some(args.jobs), usize::MAX),
        keep_nodes: args.keep_nodes,
        engines: args.engines,
        addr: SocketAddr::new(args.bind, args.port),
        allow_hosts: args.allow_hosts,
    };
    let server = Server::bind(config)?;
    if !args.bind.is_loopback() {
        // Other machines name this one in their requests: without `--allow-host` every
        // such request is refused (only loopback names are this server's by default).
        let names = if allow_hosts_given {
            String::new()
        } else {
            "; requests from other machines are refused until `--allow-host NAME` names this machine as they reach it".to_string()
        };
        eprintln!(
            "warning: listening on {}: anyone who can reach this machine can run searches on it{names}",
            server.local_addr()
        );
    }
    let url = server.url();
    println!("sargon serve: {url}  (Ctrl-C stops it)");
    if args.open {
        open_browser(&url);
    }
    server.run()?;
    Ok(())
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("note: could not open a browser ({opener}: {e}); open {url} yourself");
    }
}
