//! A Sargon board as text: [`BoardDiagram`].

use std::fmt;

use crate::vocab::{Sq, BLACK, BOARD_SIZE, MOVED};

/// A board as 8 text lines (rank 8 first), Sargon's flags shown: `*` after a moved piece.
pub struct BoardDiagram<'a>(pub &'a [u8; BOARD_SIZE]);

impl fmt::Display for BoardDiagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8u8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..8u8 {
                let b = self.0[Sq::from_file_rank(file, rank).0 as usize];
                let letter = match b & 7 {
                    1 => 'p',
                    2 => 'n',
                    3 => 'b',
                    4 => 'r',
                    5 => 'q',
                    6 => 'k',
                    _ => '.',
                };
                let letter = if b & BLACK == 0 {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                };
                let mark = if b & 7 != 0 && b & MOVED != 0 {
                    '*'
                } else {
                    ' '
                };
                write!(f, " {letter}{mark}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   a  b  c  d  e  f  g  h")
    }
}
