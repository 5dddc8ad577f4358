//! Tune files (`arena tune`): any text is a tune or an error naming where; an accepted one
//! gives a spec at any parameter values, a schedule of steps and flips, and a trajectory text.
#![no_main]

use arena::tune::TuneSettings;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(settings) = TuneSettings::from_toml(text, "fuzz.toml", None, None) else {
        return;
    };
    let ends: Vec<f64> = settings.params.iter().map(|p| p.max).collect();
    let _ = settings.spec(&ends);
    for k in [0, settings.iterations - 1] {
        let flips = settings.flips(k);
        assert_eq!(flips.len(), settings.params.len());
        for param in &settings.params {
            let (c_k, a_k) = settings.step(param, k);
            assert!(c_k.is_finite() && a_k.is_finite() && c_k > 0.0, "{c_k} {a_k}");
        }
    }
    let _ = arena::tune::trajectory_text(&settings, &[]);
});
