//! The cache's unit tests: the port, dressed as the original, fills and reads it.

use super::fixtures::{startpos, trace};
use super::*;
use sargon_core::digest::DigestBuilder;
use sargon_core::engine::SearchOptions;
use sargon_core::position::Book;

#[test]
fn the_key_names_image_position_depth_and_book_byte() {
    let a = startpos(false);
    let d2 = SearchOptions::depth(2);
    let k = |sha: &str, s: &Setup, o: &SearchOptions| Key::new(sha, s, o).file_stem();
    let base = k("aa", &a, &d2);
    assert_eq!(base, k("aa", &a, &d2));
    assert_ne!(base, k("ab", &a, &d2));
    assert_ne!(base, k("aa", &startpos(true), &d2), "MOVENO differs");
    assert_ne!(base, k("aa", &a, &SearchOptions::depth(3)));
    let other_byte = SearchOptions {
        book_random: 1,
        ..SearchOptions::depth(2)
    };
    assert_ne!(base, k("aa", &a, &other_byte));
    let pos: shakmaty::Chess = shakmaty::fen::Fen::from_ascii(
        b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    )
    .unwrap()
    .into_position(shakmaty::CastlingMode::Standard)
    .unwrap();
    let e4 = sargon_core::position::setup(&pos, Book::Off).unwrap();
    assert_ne!(base, k("aa", &e4, &d2));
}

#[test]
fn a_digest_is_kept_with_the_events() {
    let events = trace(1);
    let mut writer = Writer::new();
    let mut expected = DigestBuilder::new();
    for e in &events {
        writer.add(e);
        expected.add(e);
    }
    assert_eq!(writer.finish_digest(), expected.finish());
}

/// The port dressed as the original: it says it is the emulator running an image, and
/// counts the searches it really does.
struct Dressed {
    port: sargon_port::Port,
    rom: sargon_core::engine::RomId,
    searches: u32,
}

impl Dressed {
    fn new(sha: &str) -> Dressed {
        Dressed {
            port: sargon_port::Port::new(),
            rom: sargon_core::engine::RomId {
                name: "sargon".into(),
                sha256: sha.into(),
                verified: true,
                allowed_differences: Vec::new(),
            },
            searches: 0,
        }
    }
}

impl Engine for Dressed {
    /// Named as the emulator: what the cache keys on is the image it runs.
    fn id(&self) -> String {
        "emulator".into()
    }
    fn max_depth(&self) -> u8 {
        6
    }
    fn capabilities(&self) -> sargon_core::Capabilities {
        sargon_core::Capabilities::hooked(true, true)
    }
    fn rom_id(&self) -> Option<&sargon_core::engine::RomId> {
        Some(&self.rom)
    }
    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut sargon_core::hooks::Hooks,
    ) -> Result<SearchOutcome, SearchError> {
        self.searches += 1;
        self.port.search(setup, opts, hooks)
    }
}

/// The events of one left search through the cache, and whether they were read from it.
fn through(
    engine: &mut (dyn Engine + Send),
    cache: &TraceCache,
    setup: &Setup,
    opts: &SearchOptions,
) -> (Vec<Event>, bool) {
    let mut events = Vec::new();
    let run = left_search(engine, Some(cache), setup, opts, |e| events.push(e));
    run.result.expect("the search runs");
    (events, run.cost.cached)
}

/// The files in the cache's subdirectory of `dir`, less its marker.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir.join(OWN_DIR))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name() != MARKER)
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

#[test]
fn a_finished_search_is_kept_and_read_back_instead_of_searched() {
    let dir = tempfile::tempdir().unwrap();
    let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
    let mut original = Dressed::new(&"aa".repeat(32));
    let (setup, opts) = (startpos(false), SearchOptions::depth(2));
    let (first, cached) = through(&mut original, &cache, &setup, &opts);
    assert!(!cached);
    assert_eq!(first, trace(2));
    assert_eq!(entries(dir.path()).len(), 1);
    let (again, cached) = through(&mut original, &cache, &setup, &opts);
    assert!(cached);
    assert_eq!(again, first);
    assert_eq!(original.searches, 1, "the second came from the cache");
    assert_eq!(
        cache.counts(),
        CacheCounts {
            hits: 1,
            stored: 1,
            ..CacheCounts::default()
        }
    );
    // The header carries the trace's digest, as the golden files give it.
    let text = fs::read(&entries(dir.path())[0]).unwrap();
    let mut expected = DigestBuilder::new();
    first.iter().for_each(|e| expected.add(e));
    let sha = expected.finish().sha256;
    assert!(text.windows(sha.len()).any(|w| w == sha.as_bytes()));
}

#[test]
fn another_image_position_or_depth_never_meets_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
    let (setup, d1) = (startpos(false), SearchOptions::depth(1));
    let mut a = Dressed::new(&"aa".repeat(32));
    through(&mut a, &cache, &setup, &d1);
    let mut b = Dressed::new(&"bb".repeat(32));
    let (_, cached) = through(&mut b, &cache, &setup, &d1);
    assert!(!cached && b.searches == 1, "another image");
    let (_, cached) = through(&mut a, &cache, &startpos(true), &d1);
    assert!(!cached && a.searches == 2, "another MOVENO");
    let (_, cached) = through(&mut a, &cache, &setup, &SearchOptions::depth(2));
    assert!(!cached && a.searches == 3, "another depth");
    assert_eq!(entries(dir.path()).len(), 4);
    // The port is never cached: it changes with every build.
    let mut events = Vec::new();
    let run = left_search(
        &mut sargon_port::Port::new(),
        Some(&cache),
        &setup,
        &d1,
        |e| events.push(e),
    );
    assert!(run.result.is_ok() && !run.cost.cached);
    assert_eq!(entries(dir.path()).len(), 4);
}

#[test]
fn a_damaged_entry_is_removed_and_the_search_run_again() {
    let dir = tempfile::tempdir().unwrap();
    let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
    let mut original = Dressed::new(&"aa".repeat(32));
    let (setup, opts) = (startpos(false), SearchOptions::depth(2));
    let (first, ..) = through(&mut original, &cache, &setup, &opts);
    let path = entries(dir.path()).remove(0);
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 20;
    bytes[last] ^= 0x01;
    fs::write(&path, &bytes).unwrap();
    let (again, cached) = through(&mut original, &cache, &setup, &opts);
    assert!(!cached);
    assert_eq!(again, first);
    assert_eq!(original.searches, 2);
    assert_eq!(cache.counts().corrupt, 1);
    // Kept again, whole.
    let (_, cached) = through(&mut original, &cache, &setup, &opts);
    assert!(cached);
    // A file that is not an entry at all, under an entry's name: not the cache's, so
    // neither removed nor replaced; the search is run and not kept, and that is said.
    fs::write(&path, b"hello\n").unwrap();
    let (_, cached) = through(&mut original, &cache, &setup, &opts);
    assert!(!cached);
    assert_eq!(cache.counts().corrupt, 1);
    assert_eq!(cache.counts().unkept, 1);
    assert_eq!(fs::read(&path).unwrap(), b"hello\n");
    let why = cache.unsaid_write_failure().unwrap();
    assert!(
        why.contains("is not the cache's: it is left alone"),
        "{why}"
    );
}

#[test]
fn a_stopped_search_is_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
    let mut original = Dressed::new(&"aa".repeat(32));
    let opts = SearchOptions {
        stop: Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
            true,
        ))),
        ..SearchOptions::depth(4)
    };
    let run = left_search(&mut original, Some(&cache), &startpos(false), &opts, |_| {});
    assert!(
        matches!(run.result, Err(SearchError::Stopped)),
        "{:?}",
        run.result
    );
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn the_limit_removes_the_least_recently_used_entries() {
    let dir = tempfile::tempdir().unwrap();
    let d1 = SearchOptions::depth(1);
    // Measure one entry, then allow about two and a half.
    let size = {
        let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
        through(&mut Dressed::new("00"), &cache, &startpos(false), &d1);
        let size = cache.size().unwrap().bytes;
        clear(dir.path()).unwrap();
        size
    };
    let cache = TraceCache::open(dir.path(), size * 5 / 2).unwrap();
    let old = SystemTime::now() - std::time::Duration::from_secs(3600);
    for (i, sha) in ["01", "02"].iter().enumerate() {
        through(&mut Dressed::new(sha), &cache, &startpos(false), &d1);
        // Distinct ages, whatever the file system's clock resolution: 01 is older.
        for path in entries(dir.path()) {
            let f = File::options().append(true).open(&path).unwrap();
            if i == 0 {
                f.set_modified(old).unwrap();
            }
        }
    }
    // Using 01 makes 02 the least recently used.
    let (_, cached) = through(&mut Dressed::new("01"), &cache, &startpos(false), &d1);
    assert!(cached);
    through(&mut Dressed::new("03"), &cache, &startpos(false), &d1);
    assert_eq!(cache.counts().evicted, 1);
    assert!(cache.size().unwrap().bytes <= size * 5 / 2);
    let (_, cached) = through(&mut Dressed::new("01"), &cache, &startpos(false), &d1);
    assert!(cached, "01 was kept");
    let (_, cached) = through(&mut Dressed::new("02"), &cache, &startpos(false), &d1);
    assert!(!cached, "02 was removed");
}

/// A person's files, some named like the cache's, some with an entry's first line: the
/// cache never counts, removes or replaces any of them.
fn foreign_files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let stem = "ee".repeat(32);
    let entry_like = format!("{MAGIC}\n{{}}\n").into_bytes();
    let files = vec![
        (dir.join("my.trace"), entry_like.clone()),
        (dir.join("notes.tmp"), b"mine".to_vec()),
        (
            dir.join(format!("{stem}.trace")),
            b"not an entry\n".to_vec(),
        ),
        (dir.join(OWN_DIR).join("mine.trace"), entry_like),
        (
            dir.join(OWN_DIR).join(format!("{stem}.1.2.tmp")),
            b"{\"mine\": true}".to_vec(),
        ),
    ];
    for (path, bytes) in &files {
        fs::write(path, bytes).unwrap();
    }
    files
}

fn unchanged(files: &[(PathBuf, Vec<u8>)]) {
    for (path, bytes) in files {
        assert_eq!(&fs::read(path).unwrap(), bytes, "{}", path.display());
    }
}

#[test]
fn the_limit_and_clear_touch_only_the_caches_entries() {
    let dir = tempfile::tempdir().unwrap();
    let d1 = SearchOptions::depth(1);
    // A limit below one entry: every entry kept is removed again at once.
    let cache = TraceCache::open(dir.path(), 100).unwrap();
    let mine = foreign_files(dir.path());
    assert_eq!(
        cache.size().unwrap(),
        CacheSize::default(),
        "none is counted"
    );
    let cache = TraceCache::open(dir.path(), 1000).unwrap();
    for sha in ["01", "02", "03"] {
        through(&mut Dressed::new(sha), &cache, &startpos(false), &d1);
    }
    assert_eq!(cache.counts().stored, 3);
    assert!(cache.counts().evicted >= 2, "{:?}", cache.counts());
    unchanged(&mine);
    let found = survey(dir.path()).unwrap().unwrap();
    assert_eq!(found.others, 5, "{found:?}");
    let cleared = clear(dir.path()).unwrap().unwrap();
    assert_eq!(cleared.removed.entries, found.entries.entries);
    assert_eq!(cleared.others, 5);
    unchanged(&mine);
    assert_eq!(survey(dir.path()).unwrap().unwrap().entries.entries, 0);
}

#[test]
fn an_earlier_sargons_entries_are_moved_into_the_caches_subdirectory() {
    let dir = tempfile::tempdir().unwrap();
    let (setup, d1) = (startpos(false), SearchOptions::depth(1));
    let kept = {
        let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
        through(&mut Dressed::new("aa"), &cache, &setup, &d1);
        entries(dir.path()).remove(0)
    };
    // As sargon up to 55e555d kept it: at the top, with a half-written one beside it.
    let old = dir.path().join(kept.file_name().unwrap());
    fs::rename(&kept, &old).unwrap();
    fs::remove_dir_all(dir.path().join(OWN_DIR)).unwrap();
    let unfinished = dir.path().join(format!("{}.7.0.tmp", "ab".repeat(32)));
    fs::write(&unfinished, b"").unwrap();
    fs::write(dir.path().join("my.trace"), b"mine").unwrap();
    let before = survey(dir.path()).unwrap().unwrap();
    assert_eq!(
        (before.made, before.old_layout.entries, before.others),
        (false, 1, 1)
    );

    let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
    assert!(!old.exists() && !unfinished.exists());
    assert_eq!(entries(dir.path()), vec![kept]);
    let mut original = Dressed::new("aa");
    let (_, cached) = through(&mut original, &cache, &setup, &d1);
    assert!(cached && original.searches == 0, "read, not searched");
    assert_eq!(fs::read(dir.path().join("my.trace")).unwrap(), b"mine");
}

#[test]
fn a_cache_that_cannot_be_written_is_read_counted_and_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let (setup, d1) = (startpos(false), SearchOptions::depth(1));
    let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
    through(&mut Dressed::new("aa"), &cache, &setup, &d1);
    assert_eq!(cache.unsaid_write_failure(), None);
    // The subdirectory becomes a file under the running cache: nothing can be written
    // in it any more, whoever runs the test (root ignores permissions, not this).
    let own = dir.path().join(OWN_DIR);
    fs::rename(&own, dir.path().join("moved")).unwrap();
    fs::write(&own, b"").unwrap();
    for sha in ["01", "02"] {
        let (_, cached) = through(&mut Dressed::new(sha), &cache, &setup, &d1);
        assert!(!cached);
    }
    assert_eq!((cache.counts().stored, cache.counts().unkept), (1, 2));
    let why = cache.unsaid_write_failure().expect("the failure, to say");
    assert!(
        why.starts_with("cannot write ") && why.contains("ot a directory"),
        "{why}"
    );
    assert_eq!(cache.unsaid_write_failure(), None, "said once");
    assert_eq!(cache.write_failure(), Some(why));

    // Found on opening: the entries there are read, none is kept, and that is said.
    fs::remove_file(&own).unwrap();
    fs::rename(dir.path().join("moved"), &own).unwrap();
    let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
    cache.write_failure.lock().unwrap().why = Some("read-only".into());
    cache.write_failure.lock().unwrap().at_open = true;
    let mut original = Dressed::new("aa");
    let (_, cached) = through(&mut original, &cache, &setup, &d1);
    assert!(cached && original.searches == 0);
    through(&mut Dressed::new("03"), &cache, &setup, &d1);
    assert_eq!(entries(dir.path()).len(), 1, "03 not kept");
    assert_eq!((cache.counts().hits, cache.counts().unkept), (1, 1));
}
