//! The import graph between the source files of crates: which file's code names an item
//! that another file defines, and the loops in it.
//!
//! The rules (docs/architecture.md says them in short):
//! * A module is the file that defines it (`x.rs` or `x/mod.rs`, or the file a `#[path]`
//!   names); an inline `mod x { .. }` belongs to its file.
//! * An import is a `use` declaration, or a path in code that starts at `crate::`,
//!   `super::`, `self::` or a module brought in by a `use` (`diff::cpu_timed` after `use
//!   crate::diff;`), or a name brought in by a glob (`use super::*;`) and used in the file.
//! * A path is followed to the file that defines the item it names: through modules, and
//!   through `use` and `pub use` re-exports, to the definition. A file that re-exports an
//!   item imports it too. So `crate::Foo` re-exported at the crate's root from `a.rs` is an
//!   import of `a.rs`.
//! * Containment is not an import: a module reaching into its own submodules (declaring
//!   them, using or re-exporting their items) is how Rust builds a module from parts. A
//!   submodule using its parent's items, through `super::` or `crate::`, is an import.
//! * Tests count: a `#[cfg(test)]` module is code of its file like any other. Doc comments
//!   do not (a link is not an import), nor does what a macro expands to where it is called
//!   (its `$crate::` paths count in the file that defines it).
//! * Paths into other crates are not imports here: Cargo already forbids loops between
//!   crates.
//! * A loop is a strongly connected component of two files or more.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use super::scan::{scan, FileFacts, RefKind, UseItem};

/// A module's full path, starting with its crate's name.
type ModPath = Vec<String>;

#[derive(Debug, Default)]
struct Module {
    file: PathBuf,
    children: BTreeSet<String>,
    defs: BTreeSet<String>,
    uses: Vec<UseItem>,
}

struct File {
    module: ModPath,
    facts: FileFacts,
}

/// What a path names.
enum Resolved {
    /// An item defined in a module.
    Item(ModPath, String),
    /// A module itself.
    Module(ModPath),
    /// Something outside the crates scanned (std, another crate), or not found.
    Outside,
}

/// The files of some crates, with their modules.
pub(crate) struct Workspace {
    modules: BTreeMap<ModPath, Module>,
    files: BTreeMap<PathBuf, File>,
}

/// One file importing another, with the names it imports.
pub(crate) type Edges = BTreeMap<(PathBuf, PathBuf), BTreeSet<String>>;

/// A loop: its files, and the imports between them with the names that tie them.
#[derive(Debug)]
pub(crate) struct Loop {
    pub(crate) files: Vec<PathBuf>,
    pub(crate) imports: Vec<(PathBuf, PathBuf, Vec<String>)>,
}

/// `a/b/../c` as `a/c`.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

impl Workspace {
    /// Read the crates named by (crate name, root file: lib.rs or main.rs), following their
    /// `mod` declarations; `read` gives a file's text, or `None` if there is no such file.
    pub(crate) fn scan(
        crates: &[(String, PathBuf)],
        read: &dyn Fn(&Path) -> Option<String>,
    ) -> Result<Workspace, String> {
        let mut ws = Workspace {
            modules: BTreeMap::new(),
            files: BTreeMap::new(),
        };
        for (name, root) in crates {
            let text = read(root).ok_or_else(|| format!("no file {}", root.display()))?;
            ws.add_file(root.clone(), vec![name.clone()], true, &text, read)?;
        }
        Ok(ws)
    }

    fn add_file(
        &mut self,
        file: PathBuf,
        module: ModPath,
        mod_rs: bool,
        text: &str,
        read: &dyn Fn(&Path) -> Option<String>,
    ) -> Result<(), String> {
        let facts = scan(text);
        let dir = file.parent().unwrap_or(Path::new("")).to_path_buf();
        // Where `mod x;` looks for x: beside a lib.rs, main.rs or mod.rs, and below
        // `foo/` for foo.rs.
        let base = if mod_rs {
            dir.clone()
        } else {
            dir.join(file.file_stem().unwrap_or_default())
        };
        let mut children = Vec::new();
        for m in &facts.modules {
            let mut path = module.clone();
            path.extend(m.inline.iter().cloned());
            let entry = self.modules.entry(path.clone()).or_default();
            entry.file = file.clone();
            entry.defs.extend(m.defs.iter().cloned());
            entry.uses.extend(m.uses.iter().cloned());
            entry.children.extend(m.inline_children.iter().cloned());
            for child in &m.children {
                entry.children.insert(child.name.clone());
                let mut child_path = path.clone();
                child_path.push(child.name.clone());
                let candidates = match &child.path_attr {
                    Some(p) => vec![normalise(&dir.join(p))],
                    None => {
                        let mut b = base.clone();
                        b.extend(m.inline.iter());
                        vec![
                            b.join(format!("{}.rs", child.name)),
                            b.join(&child.name).join("mod.rs"),
                        ]
                    }
                };
                let found = candidates
                    .iter()
                    .find_map(|c| read(c).map(|text| (c.clone(), text)));
                let Some((child_file, text)) = found else {
                    return Err(format!(
                        "{}: `mod {}` has no file (looked for {})",
                        file.display(),
                        child.name,
                        candidates
                            .iter()
                            .map(|c| c.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                };
                // A #[path] file finds its own submodules beside it, as a mod.rs does.
                let child_mod_rs =
                    child.path_attr.is_some() || child_file.file_name() == Some("mod.rs".as_ref());
                children.push((child_file, child_path, child_mod_rs, text));
            }
        }
        self.files.insert(file, File { module, facts });
        for (child_file, child_path, child_mod_rs, text) in children {
            self.add_file(child_file, child_path, child_mod_rs, &text, read)?;
        }
        Ok(())
    }

    /// The files read, every one reached from a crate root.
    pub(crate) fn files(&self) -> BTreeSet<PathBuf> {
        self.files.keys().cloned().collect()
    }

    /// What `segs` names, written in module `scope`.
    fn resolve(
        &self,
        scope: &[String],
        segs: &[String],
        seen: &mut BTreeSet<(ModPath, String)>,
    ) -> Resolved {
        let Some(first) = segs.first() else {
            return Resolved::Module(scope.to_vec());
        };
        match first.as_str() {
            "crate" | "$crate" => self.walk(scope[..1].to_vec(), &segs[1..], seen),
            "self" => self.walk(scope.to_vec(), &segs[1..], seen),
            "super" => {
                let ups = segs.iter().take_while(|s| *s == "super").count();
                if ups >= scope.len() {
                    return Resolved::Outside;
                }
                self.walk(scope[..scope.len() - ups].to_vec(), &segs[ups..], seen)
            }
            "::" => Resolved::Outside,
            // A name in scope: an item, a `use`, a submodule (else another crate).
            _ => self.walk(scope.to_vec(), segs, seen),
        }
    }

    /// What `segs` names below module `at`.
    fn walk(
        &self,
        at: ModPath,
        segs: &[String],
        seen: &mut BTreeSet<(ModPath, String)>,
    ) -> Resolved {
        let Some(seg) = segs.first() else {
            return Resolved::Module(at);
        };
        let Some(module) = self.modules.get(&at) else {
            return Resolved::Outside;
        };
        if module.children.contains(seg) {
            let mut child = at.clone();
            child.push(seg.clone());
            return self.walk(child, &segs[1..], seen);
        }
        if module.defs.contains(seg) {
            return Resolved::Item(at, seg.clone());
        }
        if !seen.insert((at.clone(), seg.clone())) {
            return Resolved::Outside;
        }
        if let Some(item) = module.uses.iter().find(|u| u.alias.as_ref() == Some(seg)) {
            let mut path = item.path.clone();
            path.extend(segs[1..].iter().cloned());
            return self.resolve(&at, &path, seen);
        }
        for glob in module.uses.iter().filter(|u| u.alias.is_none()) {
            if let Resolved::Module(from) = self.resolve(&at, &glob.path, seen) {
                match self.walk(from, segs, seen) {
                    Resolved::Outside => {}
                    found => return found,
                }
            }
        }
        Resolved::Outside
    }

    /// The names module `at` offers to a glob import of it.
    fn offered(&self, at: &ModPath, seen: &mut BTreeSet<ModPath>) -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        let Some(module) = self.modules.get(at) else {
            return names;
        };
        if !seen.insert(at.clone()) {
            return names;
        }
        names.extend(module.defs.iter().cloned());
        names.extend(module.children.iter().cloned());
        for item in &module.uses {
            match &item.alias {
                Some(alias) => {
                    names.insert(alias.clone());
                }
                None => {
                    if let Resolved::Module(from) =
                        self.resolve(at, &item.path, &mut BTreeSet::new())
                    {
                        names.extend(self.offered(&from, seen));
                    }
                }
            }
        }
        names
    }

    /// Every import between two files, with the names imported.
    pub(crate) fn imports(&self) -> Edges {
        let mut edges = Edges::new();
        for (path, file) in &self.files {
            let mut add = |resolved: Resolved, module_too: bool| {
                let (target, name) = match resolved {
                    Resolved::Item(m, name) => (m, name),
                    Resolved::Module(m) if module_too => {
                        let name = m.last().cloned().unwrap_or_default();
                        (m, name)
                    }
                    _ => return,
                };
                let Some(to) = self.modules.get(&target) else {
                    return;
                };
                let to_module = &self.files[&to.file].module;
                // The same file, or containment: a module reaching into its own submodules.
                if to.file == *path || to_module.starts_with(&file.module) {
                    return;
                }
                edges
                    .entry((path.clone(), to.file.clone()))
                    .or_default()
                    .insert(name);
            };
            // The modules this file's `use`s bring in, by the name they are known by here.
            let mut module_names: BTreeMap<String, ModPath> = BTreeMap::new();
            for r in &file.facts.refs {
                let mut scope = file.module.clone();
                scope.extend(r.scope.iter().cloned());
                match &r.kind {
                    RefKind::Use(item) => {
                        let resolved = self.resolve(&scope, &item.path, &mut BTreeSet::new());
                        match (&item.alias, resolved) {
                            (Some(alias), Resolved::Module(m)) => {
                                module_names.insert(alias.clone(), m.clone());
                                // Naming a module is an import of it only as a re-export;
                                // otherwise the paths through it say what is imported.
                                add(Resolved::Module(m), item.public);
                            }
                            (Some(_), resolved) => add(resolved, false),
                            (None, Resolved::Module(from)) => {
                                for name in self.offered(&from, &mut BTreeSet::new()) {
                                    if !file.facts.idents.contains(&name) {
                                        continue;
                                    }
                                    match self.walk(
                                        from.clone(),
                                        std::slice::from_ref(&name),
                                        &mut BTreeSet::new(),
                                    ) {
                                        // A module the glob brings in is known by its name
                                        // here: the paths through it say what is imported.
                                        Resolved::Module(m) => {
                                            module_names.insert(name, m);
                                        }
                                        found => add(found, false),
                                    }
                                }
                            }
                            (None, Resolved::Item(m, name)) => {
                                add(Resolved::Item(m, format!("{name}::*")), false)
                            }
                            (None, Resolved::Outside) => {}
                        }
                    }
                    RefKind::Path(segs) => {
                        let first = segs[0].as_str();
                        if matches!(first, "crate" | "$crate" | "super" | "self") {
                            add(self.resolve(&scope, segs, &mut BTreeSet::new()), false);
                        } else if let Some(m) = module_names.get(first) {
                            add(
                                self.walk(m.clone(), &segs[1..], &mut BTreeSet::new()),
                                false,
                            );
                        }
                    }
                }
            }
        }
        edges
    }

    /// The loops of the import graph, each once.
    pub(crate) fn loops(&self) -> Vec<Loop> {
        let edges = self.imports();
        let nodes: Vec<PathBuf> = self.files.keys().cloned().collect();
        let index: BTreeMap<&PathBuf, usize> =
            nodes.iter().enumerate().map(|(i, n)| (n, i)).collect();
        let mut next = vec![Vec::new(); nodes.len()];
        for (from, to) in edges.keys() {
            next[index[from]].push(index[to]);
        }
        strongly_connected(&next)
            .into_iter()
            .filter(|c| c.len() > 1)
            .map(|component| {
                let files: Vec<PathBuf> = component.iter().map(|&i| nodes[i].clone()).collect();
                let imports = edges
                    .iter()
                    .filter(|((from, to), _)| files.contains(from) && files.contains(to))
                    .map(|((from, to), names)| {
                        (from.clone(), to.clone(), names.iter().cloned().collect())
                    })
                    .collect();
                let mut files = files;
                files.sort();
                Loop { files, imports }
            })
            .collect()
    }
}

/// Tarjan's strongly connected components of the graph `next` (node -> successors).
fn strongly_connected(next: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct Tarjan<'a> {
        next: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        counter: usize,
        out: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.counter);
            self.low[v] = self.counter;
            self.counter += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for k in 0..self.next[v].len() {
                let w = self.next[v][k];
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                self.out.push(component);
            }
        }
    }
    let n = next.len();
    let mut t = Tarjan {
        next,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        counter: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            t.visit(v);
        }
    }
    t.out
}

/// The loops as text, for people: how many, then each with the imports that tie it.
pub(crate) fn report(loops: &[Loop]) -> String {
    let mut text = format!("import loops between source files: {}\n", loops.len());
    for (n, l) in loops.iter().enumerate() {
        text.push_str(&format!("loop {} ({} files):\n", n + 1, l.files.len()));
        for (from, to, names) in &l.imports {
            text.push_str(&format!(
                "  {} -> {}: {}\n",
                from.display(),
                to.display(),
                names.join(", ")
            ));
        }
    }
    text
}
