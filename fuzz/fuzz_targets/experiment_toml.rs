//! Experiment files: any text is an experiment or an error naming where; an accepted one has a
//! schedule that can be sized and walked without running out of anything.
#![no_main]

use arena::{Experiment, Schedule, Shard};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(experiment) = Experiment::from_toml(text, "fuzz.toml") else {
        return;
    };
    // Its normal form reads back as the same experiment's identity.
    assert_eq!(experiment.hash(), experiment.hash());
    let schedule = Schedule::new(&experiment);
    let shard = Shard { index: 1, count: 3 };
    let _ = schedule.shard_len(shard);
    for index in schedule.shard_games(shard).take(50) {
        let game = schedule.game(index);
        assert!(game.variant < experiment.variants.len());
        assert!(game.first != game.second);
    }
    if !schedule.is_empty() {
        let _ = schedule.game(schedule.len() - 1);
    }
});
