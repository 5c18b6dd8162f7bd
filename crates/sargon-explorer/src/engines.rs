//! The engines the explorer offers: the port, the original in the emulator, and the
//! programs given with `sargon serve --engine SPEC` (other people's ports, `exec:` or
//! `uci:`).
//!
//! A page names an engine by its recorded name and is given the server's own
//! specification of it, or a refusal ([`Engines::offered`]): a web page must never be
//! able to name a program to run, so nothing a page sends reaches a shell.
//!
//! What an engine can do is what it says of itself ([`Engine::capabilities`]) once opened;
//! it is kept here by name, so that a route refuses what an engine lacks before any work
//! (and before starting a UCI program) with the sentence of [`SearchError::Lacks`].
//!
//! [`Engine::capabilities`]: sargon_core::engine::Engine::capabilities

use std::collections::HashMap;
use std::sync::Mutex;

use sargon_core::engine::{Capabilities, Capability, SearchError};
use sargon_core::input::echo;
use sargon_engines::engines::{EngineSpec, OpenError};

use super::api::{CapabilitiesInfo, EngineInfo};
use super::error::ApiError;
use super::searches::Searches;

/// What a search in the explorer needs of its engine: the tree is drawn from its trace.
pub(super) const A_SEARCH: &str = "a search in the explorer";

/// What the models need of their engine: POINTS is intercepted by a hook.
pub(super) const THE_MODELS: &str = "running the models";

/// The engines this server offers.
pub(super) struct Engines {
    /// The port, the emulator, then those of `--engine` in the order given, each once.
    specs: Vec<EngineSpec>,
    /// What each engine said it can do, by recorded name, once it has opened.
    capabilities: Mutex<HashMap<String, Capabilities>>,
}

impl Engines {
    /// The port, the emulator and `given`. Each engine is opened once here to say what it
    /// can do, so that a `uci:` program that does not start is refused before the server
    /// listens, and the page's first `/api/engines` is answered at once. The emulator
    /// without a ROM is no error: the ROM may be imported while the server runs, and the
    /// emulator is opened again when a request needs it.
    pub(super) fn new(searches: &Searches, given: Vec<EngineSpec>) -> Result<Engines, String> {
        let mut specs = vec![EngineSpec::Port, EngineSpec::EMULATOR];
        for spec in given {
            if !specs.iter().any(|s| s.to_string() == spec.to_string()) {
                specs.push(spec);
            }
        }
        let engines = Engines {
            specs,
            capabilities: Mutex::default(),
        };
        for spec in &engines.specs {
            match engines.capabilities_of(searches, spec) {
                Ok(_) => {}
                Err(_) if spec.is_emulator() => {}
                Err(e) => {
                    return Err(format!(
                        "cannot offer the engine `{}`: {e}",
                        echo(&spec.to_string())
                    ))
                }
            }
        }
        Ok(engines)
    }

    /// The engine a page names, if this server offers it: its recorded name (or an alias
    /// of the port or the emulator) must be one of [`Engines::specs`]. The specification
    /// returned is the server's own, never one read from the page.
    pub(super) fn offered(&self, name: &str) -> Result<EngineSpec, ApiError> {
        let wanted = name.parse::<EngineSpec>().ok().map(|s| s.to_string());
        self.specs
            .iter()
            .find(|s| Some(s.to_string()) == wanted)
            .cloned()
            .ok_or_else(|| {
                let names: Vec<String> = self
                    .specs
                    .iter()
                    .map(|s| format!("`{}`", echo(&s.to_string())))
                    .collect();
                ApiError::bad(format!(
                    "engine `{}` is not offered by this server (it offers {})",
                    echo(name),
                    names.join(", ")
                ))
            })
    }

    /// What `spec` can do, opening it the first time it is asked.
    fn capabilities_of(
        &self,
        searches: &Searches,
        spec: &EngineSpec,
    ) -> Result<Capabilities, OpenError> {
        let name = spec.to_string();
        if let Some(c) = self.lock().get(&name) {
            return Ok(*c);
        }
        let capabilities = searches.open(spec)?.engine.capabilities();
        self.lock().insert(name, capabilities);
        Ok(capabilities)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Capabilities>> {
        self.capabilities.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Refuse `what` before any work when `spec` lacks `capability`: the sentence of
    /// [`SearchError::Lacks`], as [`sargon_core::engine::Engine::require`] says it. An
    /// engine that cannot be opened (the emulator without a ROM) is refused with why.
    pub(super) fn require(
        &self,
        searches: &Searches,
        spec: &EngineSpec,
        capability: Capability,
        what: &str,
    ) -> Result<(), ApiError> {
        let capabilities = self
            .capabilities_of(searches, spec)
            .map_err(|e| ApiError::conflict(e.to_string()))?;
        if capabilities.has(capability) {
            return Ok(());
        }
        Err(ApiError::bad(
            SearchError::Lacks {
                engine: spec.to_string(),
                capability,
                what: what.to_string(),
            }
            .to_string(),
        ))
    }

    /// Every offered engine as `/api/engines` lists it: its recorded name, its depth
    /// range, whether it can run now (the emulator needs a ROM: its ROM, core and
    /// verification, or why not), what it can do, and whether a search with it opens
    /// as a tree (with the refusal's sentence when not).
    pub(super) fn list(&self, searches: &Searches) -> Vec<EngineInfo> {
        self.specs
            .iter()
            .map(|spec| self.describe(searches, spec))
            .collect()
    }

    fn describe(&self, searches: &Searches, spec: &EngineSpec) -> EngineInfo {
        let mut info = EngineInfo {
            available: true,
            capabilities: None,
            core: None,
            max_depth: spec.max_depth(),
            name: spec.to_string(),
            practical_depth: practical_depth(spec),
            reason: None,
            rom: None,
            search_refused: None,
            searches: false,
            verified: None,
            warning: None,
        };
        if spec.is_emulator() {
            match searches.store.load(searches.rom.as_deref()) {
                Ok(rom) => {
                    info.rom = Some(rom.meta.name.clone());
                    info.core = Some(searches.core.to_string());
                    info.verified = Some(rom.verified());
                    info.warning = Some(rom.unverified_reason().map(|why| why.to_string()));
                }
                Err(e) => {
                    info.available = false;
                    info.reason = Some(e.to_string());
                }
            }
        }
        if !info.available {
            return info;
        }
        match self.capabilities_of(searches, spec) {
            Ok(c) => {
                info.capabilities = Some(CapabilitiesInfo {
                    hooks: c.hooks,
                    state: c.state,
                    trace: c.trace,
                    z80: c.z80,
                });
                // Whether a search with it can open as a tree now.
                info.searches = c.trace;
                if !c.trace {
                    info.search_refused = Some(
                        SearchError::Lacks {
                            engine: spec.to_string(),
                            capability: Capability::Trace,
                            what: A_SEARCH.to_string(),
                        }
                        .to_string(),
                    );
                }
            }
            Err(e) => {
                info.available = false;
                info.reason = Some(e.to_string());
            }
        }
        info
    }
}

/// The deepest search that is practical in the explorer, for the depth box: done in
/// seconds. On the port a depth-5 search of a middle game (some 200,000 nodes) takes under
/// a second; the original in the emulator takes 16 s for the Italian at depth 4 and some
/// six times that at depth 5 (a release build on the 2-core development machine, loaded),
/// so its limit is 4. Another person's port is asked through its trace text, slower still.
fn practical_depth(spec: &EngineSpec) -> u8 {
    let practical = if spec.is_external() || spec.is_emulator() {
        4
    } else {
        5
    };
    practical.min(spec.max_depth())
}

/// Said beside what the port and the original show of a search made by another engine
/// (its memory at a node, its profile), which they search again themselves.
pub(super) fn searched_again_note(search_engine: &EngineSpec, what: &str) -> Option<String> {
    if matches!(search_engine, EngineSpec::Port) || search_engine.is_emulator() {
        return None;
    }
    Some(format!(
        "this search was made by `{}`, which is not read here: {what}",
        echo(&search_engine.to_string())
    ))
}
