//! The five models: pretend positions, pretend lines and pretend scores.
//!
//! The figures (FENs, SAN lines, scores) are the models' facts, as "A Window into Sargon"
//! specifies them; the titles and notes are written for this crate. Scores are in pawns from
//! White's side, in Sargon's resolution of an eighth of a pawn (the document's 0.1 for
//! 1.Nf5+ Kg8 2.h3 is stored here as the 0.125 Sargon actually works with).

/// The 14 nodes of a 2x2x2 tree, depth first: White's moves are A and B, Black's G and H.
pub const KEYS: [&str; 14] = [
    "A", "AG", "AGA", "AGB", "AH", "AHA", "AHB", "B", "BG", "BGA", "BGB", "BH", "BHA", "BHB",
];

/// One node of a model: its key, the pretend line that leads to it and its pretend score.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ModelNode {
    /// The node's key ("AG").
    pub key: &'static str,
    /// The pretend line in numbered SAN, e.g. "1.Qg8+ Nxg8 2.Nf7#".
    pub line: &'static str,
    /// The pretend score in pawns, from White's side (positive: good for White).
    pub score: f64,
}

/// One example: a pretend position and what the 14 positions of its tree are worth.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// 1 to 5, as numbered in the document.
    pub number: u8,
    /// The example's title.
    pub title: &'static str,
    /// The pretend position (White to move).
    pub fen: &'static str,
    /// What to look for, printed before the run.
    pub intro: &'static str,
    /// What the run showed, printed after it.
    pub moral: &'static str,
    /// In [`KEYS`] order.
    pub nodes: [ModelNode; 14],
}

impl Model {
    /// The node with this key, if any.
    pub(crate) fn node(&self, key: &str) -> Option<&ModelNode> {
        self.nodes.iter().find(|n| n.key == key)
    }

    /// The pretend line of a key ("" for the root).
    pub(crate) fn line(&self, key: &str) -> &'static str {
        self.node(key).map_or("", |n| n.line)
    }
}

const fn n(key: &'static str, line: &'static str, score: f64) -> ModelNode {
    ModelNode { key, line, score }
}

const FORK_FEN: &str = "7k/R1ppp1p1/1p6/4q3/5N1r/3b3P/PP3PP1/Q5K1 w - - 0 1";
const PHILIDOR_FEN: &str = "1rr4k/4n1pp/7N/8/8/8/Q4PPP/6K1 w - - 0 1";

/// The knight fork tree of examples 1 and 5; `b_static` is the static score of 1.Ng6+.
const fn fork_nodes(b_static: f64) -> [ModelNode; 14] {
    [
        n("A", "1.Nxd3", 0.0),
        n("AG", "1.Nxd3 Qd6", 0.0),
        n("AGA", "1.Nxd3 Qd6 2.Ne1", 3.375),
        n("AGB", "1.Nxd3 Qd6 2.Qb1", 3.0),
        n("AH", "1.Nxd3 Qg5", 0.0),
        n("AHA", "1.Nxd3 Qg5 2.Rxc7", 3.125),
        n("AHB", "1.Nxd3 Qg5 2.Kh2", 3.25),
        n("B", "1.Ng6+", b_static),
        n("BG", "1.Ng6+ Kh7", 0.0),
        n("BGA", "1.Ng6+ Kh7 2.Nxe5", 9.25),
        n("BGB", "1.Ng6+ Kh7 2.Nxh4", 5.0),
        n("BH", "1.Ng6+ Kg8", 0.0),
        n("BHA", "1.Ng6+ Kg8 2.Nxe5", 9.0),
        n("BHB", "1.Ng6+ Kg8 2.Nxh4", 5.25),
    ]
}

/// The smothered mate tree of examples 2 and 3: the same lines, the mating 1.Qg8+ as White's
/// first move (A) when `mate_first`, else the quiet 1.Qa1.
const fn philidor_nodes(mate_first: bool) -> [ModelNode; 14] {
    // Each white move's subtree in key order: the move, then each black reply followed by
    // White's two answers to it.
    const MATE: [(&str, f64); 7] = [
        ("1.Qg8+", 0.0),
        ("1.Qg8+ Nxg8", 0.0),
        ("1.Qg8+ Nxg8 2.Nf7#", 12.0),
        ("1.Qg8+ Nxg8 2.Nxg8", -10.0),
        ("1.Qg8+ Rxg8", 0.0),
        ("1.Qg8+ Rxg8 2.Nf7#", 12.0),
        ("1.Qg8+ Rxg8 2.Nxg8", -8.0),
    ];
    const QUIET: [(&str, f64); 7] = [
        ("1.Qa1", 0.0),
        ("1.Qa1 Rc6", 0.0),
        ("1.Qa1 Rc6 2.Nf7+", 0.0),
        ("1.Qa1 Rc6 2.Ng4", 0.0),
        ("1.Qa1 Ng8", 0.0),
        ("1.Qa1 Ng8 2.Nf7#", 12.0),
        ("1.Qa1 Ng8 2.Ng4", 0.0),
    ];
    let (a, b) = if mate_first {
        (MATE, QUIET)
    } else {
        (QUIET, MATE)
    };
    let mut nodes = [n("", "", 0.0); 14];
    let mut i = 0;
    while i < 7 {
        nodes[i] = n(KEYS[i], a[i].0, a[i].1);
        nodes[i + 7] = n(KEYS[i + 7], b[i].0, b[i].1);
        i += 1;
    }
    nodes
}

/// The five examples, in the document's order.
pub static MODELS: [Model; 5] = [
    Model {
        number: 1,
        title: "a loose bishop, or a knight fork?",
        fen: FORK_FEN,
        intro: "White can simply take the bishop on d3 (about three pawns up), or check \
                from g6, forking king, queen and rook: whichever way the black king goes, \
                the knight then takes the queen or the rook. The fork is the stronger move \
                but Sargon happens to look at it second.",
        moral: "Every node was examined. Each second choice turned out better for the side \
                making it (1...Qg5 rather than 1...Qd6, 1.Ng6+ rather than 1.Nxd3, 1...Kg8 \
                rather than 1...Kh7), so no line was ever refuted early and no evaluation \
                reached its alpha-beta threshold. The PV wins the queen.",
        nodes: fork_nodes(0.0),
    },
    Model {
        number: 2,
        title: "Philidor's smothered mate, looked at first",
        fen: PHILIDOR_FEN,
        intro: "1.Qg8+ forces a capture with knight or rook, and 2.Nf7 is then mate either \
                way. The quiet 1.Qa1 is the alternative. Here the mating move is the first \
                one Sargon tries.",
        moral: "Because the best move came first, alpha-beta had plenty to cut: once one \
                recapture on g8 had been shown to lose to mate, one mate against the other \
                recapture was enough, and 1.Qa1 was thrown out after a single black reply.",
        nodes: philidor_nodes(true),
    },
    Model {
        number: 3,
        title: "Philidor's smothered mate, looked at second",
        fen: PHILIDOR_FEN,
        intro: "The same position and lines as example 2, but the two white moves swap \
                places: the quiet 1.Qa1 is examined first and the mating 1.Qg8+ second.",
        moral: "Evaluation (4) shows a cutoff at its plainest: after 1.Qa1 Ng8 White mates \
                with 2.Nf7#, while 1...Rc6 had already held White to equality, so Black \
                would never play 1...Ng8 and its other white replies are not needed. With \
                the best move second, Sargon needs ten evaluations instead of the eight of \
                example 2: as many cutoffs, but each one saves less.",
        nodes: philidor_nodes(false),
    },
    Model {
        number: 4,
        title: "a rook for free, or mate if Black goes wrong",
        fen: "8/r5kp/6pr/8/1n1N4/6R1/6PP/3R3K w - - 0 1",
        intro: "Either knight check drives the black king to g8 or h8. After 1.Nf5+ White \
                wins the h6 rook (or mates on d8 if the king goes to the corner); after \
                1.Ne6+ there is only a mate if Black steps into the corner.",
        moral: "Evaluation (4) is another clean cutoff: 2.Rd8# punishes 1...Kh8, and Black \
                has 1...Kg8 (losing only the rook), so the rest of White's replies to \
                1...Kh8 do not matter. Then 1.Ne6+ falls at its first black reply.",
        nodes: [
            n("A", "1.Nf5+", 0.0),
            n("AG", "1.Nf5+ Kg8", 0.0),
            n("AGA", "1.Nf5+ Kg8 2.Nxh6+", 5.125),
            n("AGB", "1.Nf5+ Kg8 2.h3", 0.125),
            n("AH", "1.Nf5+ Kh8", 0.0),
            n("AHA", "1.Nf5+ Kh8 2.Rd8#", 12.0),
            n("AHB", "1.Nf5+ Kh8 2.Nxh6", 5.0),
            n("B", "1.Ne6+", 0.0),
            n("BG", "1.Ne6+ Kg8", 0.0),
            n("BGA", "1.Ne6+ Kg8 2.h3", 0.375),
            n("BGB", "1.Ne6+ Kg8 2.Rd8+", 0.5),
            n("BH", "1.Ne6+ Kh8", 0.0),
            n("BHA", "1.Ne6+ Kh8 2.h3", 0.25),
            n("BHB", "1.Ne6+ Kh8 2.Rd8#", 12.0),
        ],
    },
    Model {
        number: 5,
        title: "the knight fork again, with the fork sorted first",
        fen: FORK_FEN,
        intro: "Example 1 once more, with one change: the static score of 1.Ng6+ (the score \
                of the position right after it, before any search) is 1.0 instead of 0.0. \
                Static scores of inner nodes never reach the final result, but Sargon sorts \
                the moves of every ply it will search deeper by them, so 1.Ng6+ is now \
                examined before 1.Nxd3.",
        moral: "The same PV as in example 1, for ten evaluations instead of fourteen: with \
                the stronger move first, 1.Nxd3 is refuted by Black's first reply. \
                Alpha-beta does best when the best moves are tried first.",
        nodes: fork_nodes(1.0),
    },
];
