//! The assembler's and the listing reader's errors: a line number and a typed cause.
//!
//! Every cause is a variant carrying its data (the symbol, the value, the operand text),
//! so a caller can tell causes apart without reading the message. The messages are the
//! ones the assembler has always printed (`line N: ...`); the command line shows them and
//! its tests compare them.

/// An assembly error, with the 1-based source line (for a listing, the listing's line or
/// the record's line number; 0 when the error concerns no line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
#[non_exhaustive]
pub struct AsmError {
    /// The source line (from 1).
    pub line: usize,
    /// What is wrong.
    pub kind: AsmErrorKind,
}

impl AsmError {
    pub(crate) fn new(line: usize, kind: AsmErrorKind) -> Self {
        AsmError { line, kind }
    }
}

/// Why a source did not assemble, or a listing could not be read.
///
/// Values are the assembler's 64-bit intermediate values (`$-BASE` may be negative).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AsmErrorKind {
    // Symbols and values, found when the program is laid out and emitted.
    /// A symbol is used but never defined.
    #[error("undefined symbol {name}")]
    UndefinedSymbol {
        /// The symbol, upper-cased.
        name: String,
    },
    /// An expression divides (`/`) or takes a remainder (`%`) by zero.
    #[error("bad operand: division by zero")]
    DivisionByZero,
    /// A label or `EQU` name is defined twice.
    #[error("duplicate label {name}")]
    DuplicateLabel {
        /// The name, upper-cased.
        name: String,
    },
    /// A symbol's value changes from pass to pass because it depends on itself (through
    /// a `DS` size, say), so forward references to it cannot be resolved.
    #[error("the value of {name} does not settle (it depends on itself)")]
    SymbolDoesNotSettle {
        /// The symbol, upper-cased.
        name: String,
    },
    /// An `ORG` address outside 0..=0FFFFh.
    #[error("value out of range: ORG {value:#X}")]
    OrgOutOfRange {
        /// The address asked for.
        value: i64,
    },
    /// A `DS` size outside 0..=10000h.
    #[error("value out of range: DS {value}")]
    DsSizeOutOfRange {
        /// The size asked for.
        value: i64,
    },
    /// A byte operand outside -256..=255 (or 0FF00h..=0FFFFh, a negative byte in 16
    /// bits).
    #[error("value out of range: {value:#X} does not fit in a byte")]
    ByteOutOfRange {
        /// The value.
        value: i64,
    },
    /// A word operand outside -65535..=65535.
    #[error("value out of range: {value:#X} does not fit in a word")]
    WordOutOfRange {
        /// The value.
        value: i64,
    },
    /// An index displacement `(IX+d)` outside -128..=127 (or 0FF80h..=0FFFFh).
    #[error("displacement out of range: {value} (must be -128 to 127)")]
    DisplacementOutOfRange {
        /// The displacement.
        value: i64,
    },
    /// A relative jump (`JR`, `DJNZ`) whose target is more than -128..=127 bytes from
    /// the address after the instruction.
    #[error("relative jump out of range: target {target:#06X} is {offset} bytes away")]
    JumpOutOfRange {
        /// The target address.
        target: i64,
        /// Its distance from the address after the instruction.
        offset: i64,
    },
    /// Bytes would be emitted past address 0FFFFh.
    #[error("code beyond address 0FFFFh (at {address:#X})")]
    BeyondAddressSpace {
        /// Where the statement's bytes start.
        address: i64,
    },
    /// An `RST` target other than 0, 8h, ..., 38h.
    #[error("bad operand: RST {value:#X} (0, 8h, …, 38h)")]
    BadRstTarget {
        /// The target given.
        value: i64,
    },
    /// An `IM` mode other than 0, 1 or 2.
    #[error("bad operand: IM {value} (0, 1 or 2)")]
    BadInterruptMode {
        /// The mode given.
        value: i64,
    },
    /// A `BIT`, `RES` or `SET` bit number outside 0..=7.
    #[error("bad operand: bit number {value} (0 to 7)")]
    BadBitNumber {
        /// The bit number given.
        value: i64,
    },

    // Taking a line apart.
    /// A line starts with `=` and no name before it.
    #[error("`=` without a name: `={rest}`")]
    EqualsWithoutName {
        /// What follows the `=`, trimmed.
        rest: String,
    },
    /// Text where a label or an operation should be.
    #[error("unexpected `{text}`")]
    Unexpected {
        /// The text, from where it went wrong to the end of the code.
        text: String,
    },
    /// An operation followed directly by something other than a space (`LD,A`).
    #[error("unexpected `{text}` after `{operation}`")]
    UnexpectedAfterOperation {
        /// What follows the operation, trimmed.
        text: String,
        /// The operation as written.
        operation: String,
    },

    // Macros.
    /// Macro calls nested more deeply than the assembler allows (a macro that calls
    /// itself, usually).
    #[error("macro {name} nested too deeply")]
    MacroTooDeep {
        /// The macro called at the depth that was too much, upper-cased.
        name: String,
    },
    /// A macro called with more arguments than it has parameters.
    #[error("macro {name} takes {parameters} arguments, {arguments} given")]
    TooManyMacroArguments {
        /// The macro, upper-cased.
        name: String,
        /// The parameters it has.
        parameters: usize,
        /// The arguments given.
        arguments: usize,
    },
    /// `MACRO`, `ENDM` or `END` in the body of a macro being expanded.
    #[error("{directive} inside macro {name} is not supported")]
    DirectiveInMacro {
        /// The directive, upper-cased.
        directive: String,
        /// The macro, upper-cased.
        name: String,
    },
    /// `MACRO` without a name before it.
    #[error("MACRO without a name")]
    MacroWithoutName,
    /// A macro whose name is already a macro or a mnemonic.
    #[error("macro {name} already defined")]
    MacroAlreadyDefined {
        /// The name, upper-cased.
        name: String,
    },
    /// A macro parameter that is not a plain name.
    #[error("bad macro parameter `{parameter}`")]
    BadMacroParameter {
        /// The parameter as written.
        parameter: String,
    },
    /// A macro definition that the source ends inside.
    #[error("macro {name} has no ENDM")]
    MacroWithoutEndm {
        /// The macro, upper-cased.
        name: String,
    },
    /// `ENDM` outside a macro definition.
    #[error("ENDM without MACRO")]
    EndmWithoutMacro,

    // Directives.
    /// An empty operand where an expression belongs (`DB 1,`).
    #[error("bad operand: missing expression")]
    MissingExpression,
    /// A directive's operand that is not an expression.
    #[error("bad operand: {0}")]
    BadExpression(ExprError),
    /// `EQU`, `=` or `ORG` with other than one operand.
    #[error("bad operand: {directive} takes one operand")]
    NotOneOperand {
        /// The directive, upper-cased, without a leading `.`.
        directive: String,
    },
    /// `EQU` or `=` without a name to define.
    #[error("{directive} without a name")]
    EquWithoutName {
        /// The directive as written.
        directive: String,
    },
    /// `DB` (`DEFB`, `DEFM`) without values.
    #[error("bad operand: DB needs values")]
    DbWithoutValues,
    /// `DW` (`DEFW`) without values.
    #[error("bad operand: DW needs values")]
    DwWithoutValues,
    /// `DS` (`DEFS`) with no operand or more than two.
    #[error("bad operand: DS takes a size and an optional fill value")]
    BadDsOperands,

    // Instructions.
    /// An operation that is no Z80 mnemonic, directive or macro.
    #[error("unknown mnemonic {mnemonic}")]
    UnknownMnemonic {
        /// The operation, upper-cased.
        mnemonic: String,
    },
    /// Operands given to an instruction that takes none (`NOP A`).
    #[error("bad operand: {mnemonic} takes no operands (`{}`)", .operands.join(","))]
    TakesNoOperands {
        /// The mnemonic, upper-cased.
        mnemonic: String,
        /// The operands given, trimmed.
        operands: Vec<String>,
    },
    /// Operands the instruction has no form for (`LD A,HL`, `JR PO,0`, a wrong count).
    #[error("bad operand for {mnemonic}: `{}`", .operands.join(","))]
    BadOperands {
        /// The mnemonic, upper-cased.
        mnemonic: String,
        /// The operands given, trimmed.
        operands: Vec<String>,
    },
    /// An empty instruction operand (`LD A,`).
    #[error("missing operand")]
    MissingOperand,
    /// An operand in brackets starting with `IX` or `IY` but not `(IX)`, `(IX+d)` or
    /// `(IX-d)`.
    #[error("bad operand `{operand}`: expected (IX+d)")]
    BadIndexOperand {
        /// The operand as written, trimmed.
        operand: String,
    },
    /// An instruction operand that is no register and no expression.
    #[error("bad operand `{operand}`: {error}")]
    BadOperandExpression {
        /// The operand as written, trimmed; for `(IX+d)`, the displacement with its sign.
        operand: String,
        /// Why it is no expression.
        error: ExprError,
    },

    // Reading a zmac listing.
    /// A symbol-table entry without a value.
    #[error("symbol {name} without a value")]
    SymbolWithoutValue {
        /// The symbol as the listing writes it.
        name: String,
    },
    /// A symbol-table value that is not hexadecimal.
    #[error("bad value `{value}` of symbol {name}")]
    BadSymbolValue {
        /// The symbol as the listing writes it.
        name: String,
        /// The value as written (without `=` and `'` markers).
        value: String,
    },
    /// A line in a listing's body that is neither a numbered record nor a continuation
    /// of one.
    #[error("not a zmac listing line: `{text}`")]
    NotAListingLine {
        /// The line, end trimmed.
        text: String,
    },
    /// A text with no numbered listing lines at all.
    #[error("not a zmac listing: no numbered lines")]
    NotAListing,
    /// A listing record whose bytes run past address 0FFFFh.
    #[error("listing line {record} emits beyond address 0FFFFh")]
    RecordBeyondAddressSpace {
        /// The record's (source) line number.
        record: usize,
    },
    /// A damaged listing record (a zmac fault) that could not be recovered from the
    /// source text the listing carries.
    #[error("the listing's record of line {record} is damaged, and {why}")]
    DamagedRecord {
        /// The first damaged record's (source) line number.
        record: usize,
        /// Why it could not be recovered.
        why: Unrecoverable,
    },
}

/// Why an expression could not be parsed. `expression` fields hold the whole
/// expression's text, trimmed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExprError {
    /// Text that cannot continue the expression.
    #[error("unexpected `{text}` in expression `{expression}`")]
    Unexpected {
        /// The text from where it went wrong.
        text: String,
        /// The expression.
        expression: String,
    },
    /// More operators and brackets than the parser accepts (1000).
    #[error("expression too complex: `{expression}`")]
    TooComplex {
        /// The expression.
        expression: String,
    },
    /// An operator without its operand, or an empty expression.
    #[error("missing operand in expression `{expression}`")]
    MissingOperand {
        /// The expression.
        expression: String,
    },
    /// An opened `(` or `[` not closed.
    #[error("missing `{bracket}` in expression `{expression}`")]
    MissingBracket {
        /// The closing bracket expected.
        bracket: char,
        /// The expression.
        expression: String,
    },
    /// `$` followed by characters that are not a hexadecimal number.
    #[error("bad hexadecimal number `${digits}`")]
    BadHexNumber {
        /// What follows the `$`.
        digits: String,
    },
    /// A character constant without its closing quote.
    #[error("unterminated character constant in `{expression}`")]
    UnterminatedCharacter {
        /// The expression.
        expression: String,
    },
    /// A quoted constant of other than one or two characters.
    #[error("`{text}` is not a character constant")]
    NotACharacterConstant {
        /// The constant, quotes included.
        text: String,
    },
    /// A token starting with a digit that is no number in any radix form.
    #[error("bad number `{text}`")]
    BadNumber {
        /// The token.
        text: String,
    },
}

/// Why a damaged listing record could not be recovered from the listing's source text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unrecoverable {
    /// The listing numbers a line beyond its own length, so its source text is not
    /// rebuilt (that would allocate up to the number).
    #[error(
        "its source text cannot be rebuilt: it numbers a line {numbered}, beyond the \
         listing's {listing_lines} lines"
    )]
    LineBeyondListing {
        /// The highest line number the listing gives.
        numbered: usize,
        /// The listing's own number of lines.
        listing_lines: usize,
    },
    /// The source text does not assemble.
    #[error("its source text does not assemble ({0})")]
    SourceDoesNotAssemble(Box<AsmError>),
    /// The source text assembles to bytes other than the listing's intact records.
    #[error("assembling its source text does not reproduce the listing (from line {from_line})")]
    NotReproduced {
        /// The line number of the first intact record that differs; when one run of
        /// records is a prefix of the other, the shorter run's length instead.
        from_line: usize,
    },
    /// The damaged line's bytes, assembled, are not one run (a macro call with an `ORG`).
    #[error("line {line} emits in several places")]
    EmitsInSeveralPlaces {
        /// The line.
        line: usize,
    },
}
