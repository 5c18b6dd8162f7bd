//! The clocks of 1978: turning a count of Z80 T-states into seconds on the machines Sargon
//! ran on. Engine-neutral arithmetic, used wherever the emulator's counts are reported.

/// The TRS-80 Model I's clock in Hz.
pub const TRS80_HZ: f64 = 1_774_000.0;
/// A 4 MHz Z80 (the Z80A of 1978 machines such as the Model II), in Hz.
pub const Z80A_HZ: f64 = 4_000_000.0;

/// Seconds on a 1.774 MHz TRS-80 Model I.
pub fn trs80_seconds(t_states: u64) -> f64 {
    t_states as f64 / TRS80_HZ
}

/// Seconds on a 4 MHz Z80.
pub fn z80a_seconds(t_states: u64) -> f64 {
    t_states as f64 / Z80A_HZ
}
