//! Running Graphviz's `dot`: the pictures the library draws as DOT become SVG or PNG here,
//! at the edge of the program, so that the library never starts another program.

use std::io::Write as _;
use std::process::{Command, Stdio};

/// Is Graphviz's `dot` installed? Its version line if so.
pub(crate) fn graphviz_version() -> Option<String> {
    let out = Command::new("dot").arg("-V").output().ok()?;
    // `dot -V` writes to stderr.
    let text = String::from_utf8_lossy(&out.stderr).trim().to_string();
    out.status.success().then_some(text)
}

/// Run Graphviz's `dot` on a DOT graph to make `format` (`svg`, `png`, ...).
pub(crate) fn render_with_graphviz(dot: &str, format: &str) -> anyhow::Result<Vec<u8>> {
    if graphviz_version().is_none() {
        anyhow::bail!(
            "Graphviz's `dot` is needed for {format} output and was not found: install graphviz \
             (e.g. `apt-get install graphviz`), or use --format dot and render it elsewhere"
        );
    }
    let mut child = Command::new("dot")
        .arg(format!("-T{format}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("piped");
    let input = dot.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output()?;
    writer
        .join()
        .map_err(|_| anyhow::anyhow!("writing to dot failed"))??;
    if !out.status.success() {
        anyhow::bail!(
            "dot -T{format} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(out.stdout)
}

/// SVG of a DOT graph, by Graphviz.
pub(crate) fn render_svg(dot: &str) -> anyhow::Result<String> {
    Ok(String::from_utf8(render_with_graphviz(dot, "svg")?)?)
}
