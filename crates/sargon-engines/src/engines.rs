//! Which engine: one specification, parsed here ([`EngineSpec`]) and opened here
//! ([`open`], feature `emulator`).
//!
//! A specification is what a person writes after `--engine`, `--left` or `--right`:
//!
//! * `port` (alias `native`): the native Rust port;
//! * `emulator` (aliases `emu`, `z80`): the original Z80 code in the emulator, running an
//!   imported ROM (`--rom`) on a Z80 core (`--core`);
//! * `exec:COMMAND`: another person's port, run once per search, printing its trace
//!   ([`crate::external::ExecEngine`]);
//! * `uci:COMMAND`: another person's port that speaks UCI
//!   ([`crate::external::UciEngine`]).
//!
//! The command line parses its arguments into an [`EngineSpec`] and hands it over; it
//! builds no engine itself, and neither does the explorer's server. What an opened engine
//! can do it says itself ([`sargon_core::Engine::capabilities`]); nothing here or elsewhere
//! asks which of these it was.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use sargon_core::engine::Engine;
use sargon_core::input::echo;

/// An engine as a person names it; [`fmt::Display`] gives the name every result records
/// (`port`, `emulator`, `exec:COMMAND`, `uci:COMMAND`).
///
/// ```
/// use sargon_engines::engines::EngineSpec;
///
/// let spec: EngineSpec = "exec:./my-port --trace".parse()?;
/// assert_eq!(spec, EngineSpec::Exec("./my-port --trace".into()));
/// assert_eq!("emu".parse::<EngineSpec>()?.to_string(), "emulator");
/// assert!(spec.is_external() && !spec.is_emulator());
/// assert!("zargon".parse::<EngineSpec>().is_err());
/// # Ok::<(), sargon_engines::engines::SpecError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EngineSpec {
    /// The native port.
    Port,
    /// The original in the emulator.
    Emulator {
        /// The ROM of the store to run (default: the only one imported, or `sargon`).
        rom: Option<String>,
        /// The Z80 core, by name (default: iz80).
        core: Option<String>,
    },
    /// A program that prints its trace, run once per search.
    Exec(String),
    /// A UCI engine, started once.
    Uci(String),
}

impl EngineSpec {
    /// The emulator on its default ROM and core.
    pub const EMULATOR: EngineSpec = EngineSpec::Emulator {
        rom: None,
        core: None,
    };

    /// Is this the original in the emulator?
    pub fn is_emulator(&self) -> bool {
        matches!(self, EngineSpec::Emulator { .. })
    }

    /// Is this another person's program (`exec:` or `uci:`)?
    pub fn is_external(&self) -> bool {
        matches!(self, EngineSpec::Exec(_) | EngineSpec::Uci(_))
    }

    /// The deepest search the engine named takes, known before it is opened (for a UCI
    /// `option` line): the original's tables hold 6 plies, the port's 20, and another
    /// person's port is asked no deeper than ours ([`crate::external::EXTERNAL_MAX_DEPTH`]).
    /// Once opened, [`Engine::max_depth`] says the same.
    pub fn max_depth(&self) -> u8 {
        match self {
            EngineSpec::Port => sargon_port::MAX_DEPTH,
            #[cfg(feature = "emulator")]
            EngineSpec::Emulator { .. } => sargon_original::emu::MAX_DEPTH,
            #[cfg(not(feature = "emulator"))]
            EngineSpec::Emulator { .. } => 6,
            EngineSpec::Exec(_) | EngineSpec::Uci(_) => crate::external::EXTERNAL_MAX_DEPTH,
        }
    }

    /// Check a depth against [`EngineSpec::max_depth`] before the engine is opened, as
    /// [`Engine::check_depth`] checks it after.
    pub fn check_depth(&self, depth: u8) -> Result<(), sargon_core::SearchError> {
        let max = self.max_depth();
        if depth == 0 || depth > max {
            return Err(sargon_core::SearchError::DepthOutOfRange {
                engine: self.to_string(),
                depth,
                max,
            });
        }
        Ok(())
    }

    /// The same specification, the emulator's ROM and core set from `--rom` and `--core`
    /// where they are given (other engines have neither and are returned as they are).
    pub fn with_rom_and_core(self, rom: Option<&str>, core: Option<&str>) -> EngineSpec {
        match self {
            EngineSpec::Emulator { rom: r, core: c } => EngineSpec::Emulator {
                rom: rom.map(str::to_string).or(r),
                core: core.map(str::to_string).or(c),
            },
            other => other,
        }
    }
}

/// As its recorded name: a results file or a JSON answer names an engine as a person does.
impl serde::Serialize for EngineSpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Why a text names no engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpecError {
    /// Not an engine's name, nor `exec:` or `uci:`.
    #[error(
        "unknown engine `{0}` (expected `port` or `emulator`, or `exec:COMMAND` or \
         `uci:COMMAND` for another program)"
    )]
    Unknown(String),
    /// `exec:` or `uci:` with nothing after it.
    #[error("`{0}:` needs a command after the colon")]
    NoCommand(&'static str),
}

impl FromStr for EngineSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<EngineSpec, SpecError> {
        let command = |c: &str, kind| {
            if c.trim().is_empty() {
                Err(SpecError::NoCommand(kind))
            } else {
                Ok(c.to_string())
            }
        };
        if let Some(c) = s.strip_prefix("exec:") {
            return Ok(EngineSpec::Exec(command(c, "exec")?));
        }
        if let Some(c) = s.strip_prefix("uci:") {
            return Ok(EngineSpec::Uci(command(c, "uci")?));
        }
        match s {
            "port" | "native" => Ok(EngineSpec::Port),
            "emulator" | "emu" | "z80" => Ok(EngineSpec::EMULATOR),
            _ => Err(SpecError::Unknown(echo(s))),
        }
    }
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineSpec::Port => f.write_str("port"),
            EngineSpec::Emulator { .. } => f.write_str("emulator"),
            EngineSpec::Exec(c) => write!(f, "exec:{c}"),
            EngineSpec::Uci(c) => write!(f, "uci:{c}"),
        }
    }
}

/// What opening an engine needs beyond its specification.
#[derive(Clone, Debug)]
pub struct OpenOptions {
    /// Where the emulator's ROMs are (`--roms`, `$SARGON_ROMS` or the default).
    #[cfg(feature = "emulator")]
    pub store: sargon_original::rom::RomStore,
    /// How long a search of another person's port may take.
    pub timeout: Duration,
}

impl OpenOptions {
    /// Options with the default ROM store (`$SARGON_ROMS`, else the XDG data directory)
    /// and `timeout` for another person's port.
    pub fn new(timeout: Duration) -> OpenOptions {
        OpenOptions {
            #[cfg(feature = "emulator")]
            store: sargon_original::rom::RomStore::open(None),
            timeout,
        }
    }
}

/// Why an engine could not be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// The emulator needs an imported copy of the original, and none could be loaded.
    #[cfg(feature = "emulator")]
    #[error(transparent)]
    Rom(#[from] sargon_original::rom::RomError),
    /// The ROM loaded but the harness cannot run it (a symbol or hook point is missing).
    #[cfg(feature = "emulator")]
    #[error("the imported ROM cannot be used: {0}")]
    Unusable(sargon_original::rom::RomError),
    /// A core name that names no core.
    #[cfg(feature = "emulator")]
    #[error(transparent)]
    Core(#[from] sargon_original::emu::UnknownCore),
    /// This build has no emulator.
    #[cfg(not(feature = "emulator"))]
    #[error("this build of sargon-engines has no emulator (feature `emulator`)")]
    NoEmulator,
    /// A `uci:` engine did not start or did not answer its handshake. The cause is in the
    /// message and not also a `source()`, so that an error line says it once.
    #[error("cannot start the UCI port: {0}")]
    Uci(crate::uci_client::ClientError),
    /// The engine is not among those the program asked offers: an opener of a test or a
    /// fuzz target that runs the port only refuses the others with this.
    #[error("the {0} engine is not offered here")]
    NotOffered(EngineSpec),
}

/// An engine that [`open`] opened, with what the person running it must be told.
pub struct Opened {
    /// The engine, ready to search.
    pub engine: Box<dyn Engine + Send>,
    /// For the emulator on a ROM that is not verified (see `sargon_referee::verify`): the warning
    /// to show, one line. The library does not print it; the program that opened the
    /// engine does, so that whatever it shows, the person running it is told.
    pub warning: Option<String>,
}

/// Open the engine `spec` names.
///
/// ```
/// use sargon_engines::engines::{open, EngineSpec, OpenOptions};
///
/// let options = OpenOptions::new(sargon_engines::external::DEFAULT_TIMEOUT);
/// let port = open(&EngineSpec::Port, &options)?.engine;
/// assert_eq!(port.id(), "port");
/// assert!(port.capabilities().hooks);
/// let exec = open(&EngineSpec::Exec("./my-port".into()), &options)?.engine;
/// assert!(exec.capabilities().trace && !exec.capabilities().hooks);
/// # Ok::<(), sargon_engines::engines::OpenError>(())
/// ```
pub fn open(spec: &EngineSpec, options: &OpenOptions) -> Result<Opened, OpenError> {
    let engine: Box<dyn Engine + Send> = match spec {
        EngineSpec::Port => Box::new(sargon_port::Port::new()),
        EngineSpec::Emulator { rom, core } => return open_emulator(options, rom, core),
        EngineSpec::Exec(command) => {
            Box::new(crate::external::ExecEngine::new(command, options.timeout))
        }
        EngineSpec::Uci(command) => Box::new(
            crate::external::UciEngine::start(command, options.timeout).map_err(OpenError::Uci)?,
        ),
    };
    Ok(Opened {
        engine,
        warning: None,
    })
}

/// One side of a comparison (`sargon diff`), opened. A UCI port is kept as itself: the
/// comparison takes its answers as it gives them (its score in its own centipawns), not
/// read back into Sargon's scale as its [`Engine::search`] reads them.
pub enum Side {
    /// Any engine, compared by its trace when it has one.
    Engine(Box<dyn Engine + Send>),
    /// A UCI port, compared by its answers.
    Uci(crate::external::UciEngine),
}

impl Side {
    /// The side as an engine.
    pub fn engine(&self) -> &(dyn Engine + Send) {
        match self {
            Side::Engine(e) => e.as_ref(),
            Side::Uci(u) => u,
        }
    }

    /// The side as an engine, to search with.
    pub fn engine_mut(&mut self) -> &mut (dyn Engine + Send) {
        match self {
            Side::Engine(e) => e.as_mut(),
            Side::Uci(u) => u,
        }
    }
}

/// Open the engine `spec` names as a side of a comparison, with the warning to show.
pub fn open_side(
    spec: &EngineSpec,
    options: &OpenOptions,
) -> Result<(Side, Option<String>), OpenError> {
    if let EngineSpec::Uci(command) = spec {
        let engine =
            crate::external::UciEngine::start(command, options.timeout).map_err(OpenError::Uci)?;
        return Ok((Side::Uci(engine), None));
    }
    let opened = open(spec, options)?;
    Ok((Side::Engine(opened.engine), opened.warning))
}

#[cfg(feature = "emulator")]
fn open_emulator(
    options: &OpenOptions,
    rom: &Option<String>,
    core: &Option<String>,
) -> Result<Opened, OpenError> {
    let core: sargon_original::emu::Core = match core {
        Some(name) => name.parse()?,
        None => Default::default(),
    };
    let rom = options.store.load(rom.as_deref())?;
    let warning = rom.unverified_reason().map(|why| {
        format!(
            "ROM `{}` is not verified ({why}): its results may not be Sargon's",
            rom.meta.name
        )
    });
    let engine =
        sargon_original::emu::Emulator::with_core(rom, core).map_err(OpenError::Unusable)?;
    Ok(Opened {
        engine: Box::new(engine),
        warning,
    })
}

#[cfg(not(feature = "emulator"))]
fn open_emulator(
    _: &OpenOptions,
    _: &Option<String>,
    _: &Option<String>,
) -> Result<Opened, OpenError> {
    Err(OpenError::NoEmulator)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifications_are_read_from_their_names_and_named_back() {
        for (text, spec) in [
            ("port", EngineSpec::Port),
            ("native", EngineSpec::Port),
            ("emulator", EngineSpec::EMULATOR),
            ("emu", EngineSpec::EMULATOR),
            ("z80", EngineSpec::EMULATOR),
            (
                "exec:./my-port --trace",
                EngineSpec::Exec("./my-port --trace".into()),
            ),
            ("uci:stockfish", EngineSpec::Uci("stockfish".into())),
        ] {
            assert_eq!(text.parse::<EngineSpec>(), Ok(spec.clone()), "{text}");
        }
        assert_eq!("emu".parse::<EngineSpec>().unwrap().to_string(), "emulator");
        assert_eq!(
            "exec:./p".parse::<EngineSpec>().unwrap().to_string(),
            "exec:./p"
        );
        assert_eq!(
            "exec: ".parse::<EngineSpec>().unwrap_err().to_string(),
            "`exec:` needs a command after the colon"
        );
        let e = "zargon".parse::<EngineSpec>().unwrap_err().to_string();
        assert!(
            e.contains("unknown engine `zargon`") && e.contains("exec:COMMAND"),
            "{e}"
        );
    }

    #[test]
    fn rom_and_core_go_to_the_emulator_only() {
        let emu = EngineSpec::EMULATOR.with_rom_and_core(Some("mine"), Some("z80emu"));
        assert_eq!(
            emu,
            EngineSpec::Emulator {
                rom: Some("mine".into()),
                core: Some("z80emu".into())
            }
        );
        assert_eq!(emu.to_string(), "emulator");
        assert_eq!(
            EngineSpec::Port.with_rom_and_core(Some("mine"), None),
            EngineSpec::Port
        );
    }
}
