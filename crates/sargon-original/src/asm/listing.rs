//! Reading a zmac listing (`.lst`): address and bytes of every line, and its symbol table.
//!
//! A listing is the assembler's own record of what it emitted, so a user who has only the
//! listing can import Sargon without trusting our assembler, and a user who has both lets
//! the tests check our assembler against zmac byte by byte.
//!
//! The format, line by line (CRLF or LF):
//!
//! ```text
//!   12:\t0010          \tSIZE    EQU     16       value of an EQU, address of ORG/DS
//!   40:\t0200  3E104706\t        DB      ...      address and up to 4 bytes
//! \t      0102                                    more bytes of the same line
//!   57:\t0234' CD000300\t        MYMACRO ...      ' marks a relocatable address
//!   10:\t\t\t                                      nothing emitted
//! ```
//!
//! then `Statistics:` and `Symbol Table:` with lines `name   value` or `name  = value`
//! (values in hex, possibly as 32-bit two's complement, names in lower case).
//!
//! zmac sometimes writes a damaged record for a macro call: an address with a NUL after
//! it, followed by dozens of continuation lines of unrelated bytes. Such records are
//! detected by their shape; their bytes are then recovered by assembling the source text
//! the listing itself carries, and accepted only if that assembly reproduces every intact
//! record of the listing exactly. [`read_listing`] reports which lines were recovered.

use std::collections::BTreeMap;

use super::{AsmError, AsmErrorKind, Assembly, Unrecoverable};

/// A listing read, with the lines whose records were damaged and had to be recovered.
#[derive(Clone, Debug)]
pub struct ListingRead {
    /// The bytes and symbols the listing gives.
    pub assembly: Assembly,
    /// Line numbers whose bytes come from assembling the listing's source text because
    /// zmac's record of them is damaged.
    pub recovered: Vec<usize>,
}

/// A line of the listing's body: `NNNN:\t...`.
fn record_number(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start_matches(' ');
    let colon = t.find(':')?;
    let n = &t[..colon];
    if n.is_empty() || !n.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let rest = t[colon + 1..].strip_prefix('\t')?;
    Some((n.parse().ok()?, rest))
}

/// Does this text look like a zmac listing rather than source?
///
/// ```
/// use sargon_original::asm::listing::looks_like_listing;
/// assert!(looks_like_listing("   1:\t0100          \t        ORG     100H\n   2:\t0100  C9      \t        RET\n"));
/// assert!(!looks_like_listing("        ORG 100H\n        RET\n"));
/// ```
pub fn looks_like_listing(text: &str) -> bool {
    let first: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .collect();
    let hits = first.iter().filter(|l| record_number(l).is_some()).count();
    hits > 0 && hits * 2 >= first.len() && record_number(first[0]).is_some()
}

/// Build an [`Assembly`] from a listing: memory from the recorded bytes, symbols from its
/// symbol table (upper-cased), `lines` from the per-line records.
///
/// ```
/// use sargon_original::asm::listing::parse_listing;
/// let lst = "   1:\t0100          \t        ORG     100H\n   2:\t0100  3E2A    \tSTART:  LD      A,42\n\nSymbol Table:\n\nstart            100     \n";
/// let a = parse_listing(lst)?;
/// assert_eq!(&a.memory[0x100..0x102], &[0x3E, 0x2A]);
/// assert_eq!(a.symbols["START"], 0x100);
/// # Ok::<(), sargon_original::asm::AsmError>(())
/// ```
pub fn parse_listing(text: &str) -> Result<Assembly, AsmError> {
    read_listing(text).map(|r| r.assembly)
}

/// A line's bytes as `Assembly::lines` holds them: (line, address, bytes).
type Emitted = (usize, u16, Vec<u8>);

/// One line's record.
struct Record {
    line: usize,
    addr: u16,
    bytes: Vec<u8>,
    damaged: bool,
}

fn hex_bytes(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

/// The address field `AAAA? BBBBBBBB` (? is a marker such as `'`): address and bytes, or
/// `None` if it is not shaped like one.
fn address_field(field: &str) -> Option<(u16, Vec<u8>)> {
    let b = field.as_bytes();
    if b.len() < 6 || !b[..4].iter().all(u8::is_ascii_hexdigit) || b[5] != b' ' {
        return None;
    }
    if !(b[4] == b' ' || b[4].is_ascii_punctuation()) {
        return None;
    }
    let addr = u16::from_str_radix(&field[..4], 16).ok()?;
    Some((addr, hex_bytes(field[6..].trim_end_matches(' '))?))
}

/// Like [`parse_listing`], also reporting recovered lines.
///
/// ```
/// use sargon_original::asm::listing::read_listing;
/// let lst = "   1:\t0100          \t        ORG     100H\n   2:\t0100  C9      \t        RET\n";
/// let read = read_listing(lst)?;
/// assert_eq!(read.assembly.extent, Some((0x100, 0x100)));
/// assert!(read.recovered.is_empty()); // no damaged record
/// # Ok::<(), sargon_original::asm::AsmError>(())
/// ```
pub fn read_listing(text: &str) -> Result<ListingRead, AsmError> {
    let mut records: Vec<Record> = Vec::new();
    // Source text per line number, kept for recovering damaged records.
    let mut source: Vec<(usize, &str)> = Vec::new();
    let mut symbols = BTreeMap::new();
    // The record that continuation lines extend: index into `records`, if any.
    let mut current: Option<usize> = None;
    let mut in_symbols = false;
    let mut in_body = true;

    for (i, raw) in text.lines().enumerate() {
        let at = i + 1;
        if in_symbols {
            read_symbols(raw, &mut symbols).map_err(|kind| AsmError::new(at, kind))?;
            continue;
        }
        match raw.trim() {
            "Symbol Table:" => {
                in_symbols = true;
                continue;
            }
            "Statistics:" => in_body = false,
            _ => {}
        }
        if !in_body {
            continue;
        }
        if let Some((n, rest)) = record_number(raw) {
            current = None;
            let (field, src) = match rest.strip_prefix('\t') {
                Some(r) => ("", r.strip_prefix('\t').unwrap_or(r)),
                None => rest.split_once('\t').unwrap_or((rest, "")),
            };
            source.push((n, src));
            if field.is_empty() {
                continue;
            }
            match address_field(field) {
                Some((_, bytes)) if bytes.is_empty() => {}
                Some((addr, bytes)) => {
                    records.push(Record {
                        line: n,
                        addr,
                        bytes,
                        damaged: false,
                    });
                    current = Some(records.len() - 1);
                }
                None => {
                    records.push(Record {
                        line: n,
                        addr: 0,
                        bytes: Vec::new(),
                        damaged: true,
                    });
                    current = Some(records.len() - 1);
                }
            }
            continue;
        }
        if raw.trim().is_empty() {
            continue;
        }
        let cont = raw
            .strip_prefix("\t      ")
            .and_then(|h| hex_bytes(h.trim_end()));
        match (current, cont) {
            (Some(c), Some(bytes)) => records[c].bytes.extend(bytes),
            (Some(c), None) => records[c].damaged = true,
            (None, _) => {
                return Err(AsmError::new(
                    at,
                    AsmErrorKind::NotAListingLine {
                        text: raw.trim_end().to_string(),
                    },
                ))
            }
        }
    }
    if records.is_empty() && source.is_empty() {
        return Err(AsmError::new(0, AsmErrorKind::NotAListing));
    }

    let mut recovered = Vec::new();
    if records.iter().any(|r| r.damaged) {
        recover(&mut records, &source, text.lines().count())?;
        recovered = records
            .iter()
            .filter(|r| r.damaged)
            .map(|r| r.line)
            .collect();
        recovered.dedup();
    }

    let mut memory = vec![0u8; 0x10000];
    let mut extent: Option<(u16, u16)> = None;
    let mut lines = Vec::with_capacity(records.len());
    for r in records {
        if r.bytes.is_empty() {
            continue;
        }
        let end = r.addr as usize + r.bytes.len() - 1;
        if end > 0xFFFF {
            return Err(AsmError::new(
                r.line,
                AsmErrorKind::RecordBeyondAddressSpace { record: r.line },
            ));
        }
        memory[r.addr as usize..=end].copy_from_slice(&r.bytes);
        extent = Some(match extent {
            None => (r.addr, end as u16),
            Some((lo, hi)) => (lo.min(r.addr), hi.max(end as u16)),
        });
        lines.push((r.line, r.addr, r.bytes));
    }
    Ok(ListingRead {
        assembly: Assembly {
            memory,
            extent,
            symbols,
            lines,
        },
        recovered,
    })
}

/// One line of the symbol table: pairs of `name value` or `name = value`.
fn read_symbols(line: &str, symbols: &mut BTreeMap<String, u16>) -> Result<(), AsmErrorKind> {
    let mut tokens = line.split_whitespace();
    while let Some(name) = tokens.next() {
        let no_value = || AsmErrorKind::SymbolWithoutValue {
            name: name.to_string(),
        };
        let mut value = tokens.next().ok_or_else(no_value)?;
        if value == "=" {
            value = tokens.next().ok_or_else(no_value)?;
        }
        let value = value.trim_start_matches('=').trim_end_matches('\'');
        let v = u64::from_str_radix(value, 16).map_err(|_| AsmErrorKind::BadSymbolValue {
            name: name.to_string(),
            value: value.to_string(),
        })?;
        symbols.insert(name.to_ascii_uppercase(), v as u16);
    }
    Ok(())
}

/// Fill in damaged records by assembling the listing's own source text, if that assembly
/// reproduces every intact record.
///
/// `listing_lines` is the number of lines of the listing itself: zmac numbers the source
/// lines it lists, so a line number beyond it is damage too, and the source text is not
/// rebuilt up to it (a number like 388888888888888 asked for petabytes: found by fuzzing).
fn recover(
    records: &mut [Record],
    source: &[(usize, &str)],
    listing_lines: usize,
) -> Result<(), AsmError> {
    let first_damaged = records.iter().find(|r| r.damaged).map_or(0, |r| r.line);
    let fail = |why: Unrecoverable| {
        AsmError::new(
            first_damaged,
            AsmErrorKind::DamagedRecord {
                record: first_damaged,
                why,
            },
        )
    };
    let max = source.iter().map(|s| s.0).max().unwrap_or(0);
    if max > listing_lines {
        return Err(fail(Unrecoverable::LineBeyondListing {
            numbered: max,
            listing_lines,
        }));
    }
    let mut text = vec![""; max];
    for &(n, s) in source {
        if n >= 1 {
            text[n - 1] = s;
        }
    }
    let assembled = super::assemble(&text.join("\n"))
        .map_err(|e| fail(Unrecoverable::SourceDoesNotAssemble(Box::new(e))))?;
    let mut by_line: BTreeMap<usize, Vec<&Emitted>> = BTreeMap::new();
    for l in &assembled.lines {
        by_line.entry(l.0).or_default().push(l);
    }
    let intact: Vec<(usize, u16, &[u8])> = records
        .iter()
        .filter(|r| !r.damaged)
        .map(|r| (r.line, r.addr, &r.bytes[..]))
        .collect();
    let damaged_lines: Vec<usize> = records
        .iter()
        .filter(|r| r.damaged)
        .map(|r| r.line)
        .collect();
    let reassembled: Vec<(usize, u16, &[u8])> = assembled
        .lines
        .iter()
        .filter(|l| !damaged_lines.contains(&l.0))
        .map(|l| (l.0, l.1, &l.2[..]))
        .collect();
    if intact != reassembled {
        let diff = intact
            .iter()
            .zip(&reassembled)
            .find(|(a, b)| a != b)
            .map_or(intact.len().min(reassembled.len()), |(a, _)| a.0);
        return Err(fail(Unrecoverable::NotReproduced { from_line: diff }));
    }
    for r in records.iter_mut().filter(|r| r.damaged) {
        match by_line.get(&r.line).map(Vec::as_slice) {
            Some([(_, addr, bytes)]) => {
                r.addr = *addr;
                r.bytes = bytes.clone();
            }
            None => r.bytes.clear(),
            Some(_) => return Err(fail(Unrecoverable::EmitsInSeveralPlaces { line: r.line })),
        }
    }
    Ok(())
}
