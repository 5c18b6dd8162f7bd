//! The clocks of 1978: turning a count of Z80 T-states into seconds on the machines Sargon
//! ran on. Engine-neutral arithmetic, used wherever the emulator's counts are reported.

/// The TRS-80 Model I's clock in Hz.
pub(crate) const TRS80_HZ: f64 = 1_774_000.0;
/// A 4 MHz Z80 (the Z80A of 1978 machines such as the Model II), in Hz.
pub(crate) const Z80A_HZ: f64 = 4_000_000.0;

/// Seconds on a 1.774 MHz TRS-80 Model I.
///
/// ```
/// assert_eq!(sargon_core::clock::trs80_seconds(1_774_000), 1.0);
/// ```
pub fn trs80_seconds(t_states: u64) -> f64 {
    t_states as f64 / TRS80_HZ
}

/// Seconds on a 4 MHz Z80.
///
/// ```
/// assert_eq!(sargon_core::clock::z80a_seconds(2_000_000), 0.5);
/// ```
pub fn z80a_seconds(t_states: u64) -> f64 {
    t_states as f64 / Z80A_HZ
}

/// The average time per move at each level (1 to 6) that the TRS-80 manual of Sargon
/// gives, in seconds: 20 s, 1 min, 2 min, 6 min, 40 min, 4 h.
pub const MANUAL_SECONDS: [f64; 6] = [20.0, 60.0, 120.0, 360.0, 2400.0, 14400.0];

/// The manual's time per move at `level` (1..=6).
///
/// ```
/// use sargon_core::clock::manual_seconds;
/// assert_eq!(manual_seconds(1), Some(20.0));
/// assert_eq!(manual_seconds(7), None);
/// ```
pub fn manual_seconds(level: u8) -> Option<f64> {
    MANUAL_SECONDS
        .get(usize::from(level).checked_sub(1)?)
        .copied()
}

/// Seconds as "8.2 s", "2m17s", "3h41m", or "2 min", "4 h" for whole minutes and hours
/// (a compact form for tables and plots).
///
/// ```
/// use sargon_core::clock::duration;
/// assert_eq!(duration(8.24), "8.2 s");
/// assert_eq!(duration(137.0), "2m17s");
/// assert_eq!(duration(14400.0), "4 h");
/// ```
pub fn duration(secs: f64) -> String {
    if secs < 10.0 {
        format!("{secs:.1} s")
    } else if secs < 60.0 {
        format!("{secs:.0} s")
    } else if secs < 3600.0 {
        let s = secs.round() as u64;
        if s.is_multiple_of(60) {
            format!("{} min", s / 60)
        } else {
            format!("{}m{:02}s", s / 60, s % 60)
        }
    } else {
        let m = (secs / 60.0).round() as u64;
        if m.is_multiple_of(60) {
            format!("{} h", m / 60)
        } else {
            format!("{}h{:02}m", m / 60, m % 60)
        }
    }
}
