//! The explorer's other views: the models of "A Window into Sargon", the profile of a
//! search and the listing of a routine (the comparison of the original and the port is
//! compare.rs).

use std::sync::Arc;

use axum::extract::{Path as UrlPath, Query, State as AxumState};
use axum::Json;
use serde_json::Value;

use sargon_core::engine::{Capability, SearchOptions};
use sargon_core::position;
use sargon_engines::engines::EngineSpec;

use super::api::{Execution, JobQuery, ListingAnswer, ModelsAnswer, ModelsQuery, ProfileAnswer};
use super::app::{finished, get_search, ApiError, App};
use super::engines::{self};
use super::jobs;
use sargon_core::position::Book;

// ---------------------------------------------------------------------------------------
// The models of "A Window into Sargon"

/// `GET /api/models?engine=port`: the five examples, each Sargon's real search of the
/// pawn position with POINTS intercepted to return the model's scores, as
/// `sargon models --format json` gives them, with each example's introduction and moral.
pub(crate) async fn models_route(
    AxumState(app): AxumState<Arc<App>>,
    Query(q): Query<ModelsQuery>,
) -> Result<Json<ModelsAnswer>, ApiError> {
    let kind = app.engines.offered(&q.engine)?;
    app.engines
        .require(&app.searches, &kind, Capability::Hooks, engines::THE_MODELS)?;
    let opened = app
        .searches
        .open(&kind)
        .map_err(|e| ApiError::conflict(e.to_string()))?;
    let runs = tokio::task::spawn_blocking(move || {
        let mut engine = opened.engine;
        sargon_views::models::MODELS
            .iter()
            .map(|m| sargon_views::models::run_example(engine.as_mut(), m.number))
            .collect::<Result<Vec<_>, _>>()
    })
    .await
    .map_err(|e| ApiError::bad(format!("the models failed: {e}")))?
    .map_err(|e| ApiError::bad(sargon_core::causes::with_causes(&e)))?;
    let mut all: Value = serde_json::from_str(&sargon_views::models::to_json(&runs))
        .map_err(|e| ApiError::bad(e.to_string()))?;
    if let Some(list) = all.as_array_mut() {
        for (v, run) in list.iter_mut().zip(&runs) {
            v["intro"] = Value::from(run.model.intro);
            v["moral"] = Value::from(run.model.moral);
        }
    }
    Ok(Json(ModelsAnswer {
        engine: kind.to_string(),
        real_fen: sargon_views::models::REAL_FEN.to_string(),
        depth: sargon_views::models::DEPTH,
        examples: all,
    }))
}

// ---------------------------------------------------------------------------------------
// Inside the original: the profile of a search, the listing of a routine

/// `GET /api/search/{id}/profile`: where the original spends the search's time, routine
/// by routine (`sargon profile`): the search run again on the emulator with the profiler
/// (for a search made by another engine too: the answer's `note` says so). It waits its
/// turn among the searches (`?job=` names it, jobs.rs), stops when its page leaves, and
/// is kept: asked again, it is answered at once (`"cached": true`).
pub(crate) async fn profile_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
    Query(query): Query<JobQuery>,
) -> Result<Json<ProfileAnswer>, ApiError> {
    let token = jobs::token(query.job)?;
    let search = get_search(&app, id)?;
    let f = finished(&search)?;
    let request = search.request.clone();
    EngineSpec::EMULATOR
        .check_depth(request.depth)
        .map_err(|e| ApiError::bad(e.to_string()))?;
    if let Some(mut kept) = app.cache.profiles.get(&request) {
        kept.cached = true;
        return Ok(Json(kept));
    }
    let rom = app
        .searches
        .store
        .load(app.searches.rom.as_deref())
        .map_err(|e| ApiError::conflict(e.to_string()))?;
    let root = f.root.clone();
    let note = engines::searched_again_note(
        &request.engine,
        "this is the original's profile of the same position, depth and book, run on the emulator",
    );
    let asked = request.clone();
    let task = app
        .searches
        .queue_task(token, move |task| -> Result<ProfileAnswer, String> {
            let setup =
                position::setup(&root, Book::from(asked.book)).map_err(|e| e.to_string())?;
            let mut emu = sargon_original::emu::Emulator::new(rom).map_err(|e| e.to_string())?;
            let opts = SearchOptions {
                depth: asked.depth,
                stop: Some(task.stop.clone()),
                ..SearchOptions::default()
            };
            let (profile, outcome) =
                sargon_original::profile::profile_search(&mut emu, &setup, &opts)
                    .map_err(|e| e.to_string())?;
            Ok(ProfileAnswer {
                rows: serde_json::to_value(&profile.rows).map_err(|e| e.to_string())?,
                totals: serde_json::to_value(&profile.totals).map_err(|e| e.to_string())?,
                // No legal move: Sargon's BESTM holds the last move it tried, never a choice.
                best: outcome
                    .best
                    .filter(|_| sargon_views::analysis::GameEnd::of(&setup.position).is_none())
                    .map(|m| m.uci()),
                cached: false,
                executions: profile
                    .executions()
                    .into_iter()
                    .map(|e| Execution {
                        address: e.address,
                        count: e.count,
                    })
                    .collect(),
                trs80_seconds: sargon_core::clock::trs80_seconds(profile.totals.t_states),
                note,
            })
        });
    let stop = task.info.stop.clone();
    let answer = match task.answer().await {
        None => return Err(jobs::cancelled("the profile")),
        Some(Err(_)) if stop.load(std::sync::atomic::Ordering::Relaxed) => {
            return Err(jobs::cancelled("the profile"))
        }
        Some(Err(e)) => return Err(ApiError::bad(format!("the profile failed: {e}"))),
        Some(Ok(answer)) => answer,
    };
    app.cache.profiles.put(request, answer.clone());
    Ok(Json(answer))
}

/// `GET /api/listing/{routine}`: the annotated disassembly of one routine of the user's
/// own imported copy (never bundled: read from the ROM store on this machine), with its
/// hook points and, under each label, the port function that implements it.
pub(crate) async fn listing_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(routine): UrlPath<String>,
) -> Result<Json<ListingAnswer>, ApiError> {
    let rom = app
        .searches
        .store
        .load(app.searches.rom.as_deref())
        .map_err(|e| ApiError::conflict(e.to_string()))?;
    let hooks = sargon_original::listing::hook_addresses(&rom);
    let program = sargon_original::program::Program::of_rom(&rom);
    let links = sargon_port_links::PortLinks::of_port();
    let text = sargon_port_links::port_listing_of(&program, &hooks, &links, &routine)
        .map_err(|e| ApiError::not_found(e.to_string()))?;
    Ok(Json(ListingAnswer {
        routine,
        rom: rom.meta.name.clone(),
        verified: rom.verified(),
        text,
    }))
}
