//! Sharded runs merge into exactly the CSV of a single run (outside the timing columns).

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use arena::{Experiment, RunOptions, Shard, merge, run};
use common::{scratch, without_timing};

const EXPERIMENT: &str = r#"
name = "sharded"
seed = 99
games_per_pair = 3
opening_plies = 1
variants = ["mnk-3x3k3", "oanquan"]

[[agents]]
name = "x"
spec = "random"

[[agents]]
name = "y"
spec = "random"

[[agents]]
name = "z"
spec = "random"
"#;

fn options(out: &Path, shard: Shard) -> RunOptions {
    common::options(out, 2, shard)
}

fn shard(index: u32, count: u32) -> Shard {
    Shard { index, count }
}

#[test]
fn shards_merge_into_the_single_run_csv() {
    let exp = Experiment::from_toml(EXPERIMENT, "sharded.toml").unwrap();
    let single = scratch("single");
    run(&exp, &options(&single, Shard::WHOLE)).unwrap();
    let sharded = scratch("parts");
    let mut played = 0;
    for i in 0..4 {
        let summary = run(&exp, &options(&sharded, shard(i, 4))).unwrap();
        assert!(summary.csv.ends_with(format!("games.shard-{i}-of-4.csv")));
        played += summary.played;
    }
    assert_eq!(played, 18);
    let merged = merge(&sharded).unwrap();
    assert_eq!(merged.games, 18);
    assert_eq!(merged.shards, 4);
    assert_eq!(
        without_timing(&merged.csv),
        without_timing(&single.join("games.csv"))
    );
    // The merged folder counts as a finished single run: nothing left to play.
    let again = run(&exp, &options(&sharded, Shard::WHOLE)).unwrap();
    assert_eq!(again.played, 0);
}

#[test]
fn shard_partition_is_by_game_index_modulo_the_count() {
    let exp = Experiment::from_toml(EXPERIMENT, "sharded.toml").unwrap();
    let schedule = arena::Schedule::new(&exp);
    let games: Vec<u64> = schedule.shard_games(shard(1, 4)).collect();
    assert_eq!(games, vec![1, 5, 9, 13, 17]);
    let all: usize = (0..4)
        .map(|i| schedule.shard_games(shard(i, 4)).count())
        .sum();
    assert_eq!(all as u64, schedule.len());
    assert!("4/4".parse::<Shard>().is_err());
    assert!("1/0".parse::<Shard>().is_err());
    assert!("x".parse::<Shard>().is_err());
    assert_eq!("2/5".parse::<Shard>().unwrap(), shard(2, 5));
}

#[test]
fn missing_games_and_shards_are_listed() {
    let exp = Experiment::from_toml(EXPERIMENT, "sharded.toml").unwrap();
    let dir = scratch("missing");
    run(&exp, &options(&dir, shard(0, 2))).unwrap();
    let error = merge(&dir).unwrap_err().to_string();
    assert!(error.contains("shard(s) 1 of 2"), "{error}");
    run(&exp, &options(&dir, shard(1, 2))).unwrap();
    // Drop two games of shard 1.
    let csv = dir.join("games.shard-1-of-2.csv");
    let text = fs::read_to_string(&csv).unwrap();
    let kept: String = text
        .split_inclusive('\n')
        .take(text.lines().count() - 2)
        .collect();
    fs::write(&csv, kept).unwrap();
    let error = merge(&dir).unwrap_err().to_string();
    assert!(
        error.contains("shard 1/2 misses 2 game(s): 15, 17"),
        "{error}"
    );
    // Rerunning the shard resumes and the merge then succeeds.
    assert_eq!(run(&exp, &options(&dir, shard(1, 2))).unwrap().played, 2);
    assert_eq!(merge(&dir).unwrap().games, 18);
}

#[test]
fn shards_of_another_experiment_are_refused() {
    let exp = Experiment::from_toml(EXPERIMENT, "sharded.toml").unwrap();
    let other = Experiment::from_toml(&EXPERIMENT.replace("seed = 99", "seed = 100"), "other.toml")
        .unwrap();
    let dir = scratch("mixed");
    run(&exp, &options(&dir, shard(0, 2))).unwrap();
    let elsewhere = scratch("mixed-other");
    run(&other, &options(&elsewhere, shard(1, 2))).unwrap();
    for name in ["games.shard-1-of-2.csv", "games.shard-1-of-2.meta.toml"] {
        fs::copy(elsewhere.join(name), dir.join(name)).unwrap();
    }
    let error = merge(&dir).unwrap_err().to_string();
    assert!(error.contains("belongs to another experiment"), "{error}");
    let empty = scratch("empty");
    assert!(
        merge(&empty)
            .unwrap_err()
            .to_string()
            .contains("no shard CSVs")
    );
}

#[test]
fn slurm_scripts_run_each_shard_as_an_array_task_and_merge_after() {
    let exp = Experiment::from_toml(EXPERIMENT, "sharded.toml").unwrap();
    let options = arena::slurm::SlurmOptions {
        shards: 4,
        out_dir: PathBuf::from("results/sharded"),
        partition: Some("short".into()),
        time: Some("00:10:00".into()),
        cpus_per_task: 2,
        arena_binary: PathBuf::from("/opt/arena/bin/arena"),
    };
    let files = arena::slurm::scripts(&exp, &options).unwrap();
    let get = |name: &str| files.iter().find(|f| f.0 == name).unwrap().1.clone();
    let array = get("array.sbatch");
    for needle in [
        "#SBATCH --array=0-3",
        "#SBATCH --cpus-per-task=2",
        "#SBATCH --partition=short",
        "#SBATCH --time=00:10:00",
        "--shard \"${SLURM_ARRAY_TASK_ID}/4\"",
        "run results/sharded/slurm/experiment.toml --out results/sharded",
        "ARENA=\"${ARENA:-/opt/arena/bin/arena}\"",
    ] {
        assert!(array.contains(needle), "`{needle}` not in:\n{array}");
    }
    assert!(get("merge.sbatch").contains("merge results/sharded"));
    assert!(get("submit.sh").contains("--dependency=afterok:\"$array\""));
    assert_eq!(get("experiment.toml"), EXPERIMENT);
}

#[test]
fn slurm_values_that_would_break_a_job_script_are_refused() {
    let exp = Experiment::from_toml(EXPERIMENT, "sharded.toml").unwrap();
    let games = arena::Schedule::new(&exp).len();
    let good = arena::slurm::SlurmOptions {
        shards: 4,
        out_dir: PathBuf::from("results/sharded"),
        partition: Some("short,long".into()),
        time: Some("1-12:00".into()),
        cpus_per_task: 2,
        arena_binary: PathBuf::from("/opt/arena/bin/arena"),
    };
    assert!(arena::slurm::scripts(&exp, &good).is_ok());
    for time in ["90", "90:30", "01:30:00", "2-0", "2-03:00:00", "UNLIMITED"] {
        let options = arena::slurm::SlurmOptions {
            time: Some(time.into()),
            ..good.clone()
        };
        assert!(arena::slurm::check(&exp, &options).is_ok(), "{time}");
    }
    let bad = |change: &dyn Fn(&mut arena::slurm::SlurmOptions), says: &str| {
        let mut options = good.clone();
        change(&mut options);
        let error = arena::slurm::scripts(&exp, &options).unwrap_err();
        assert!(error.contains(says), "{says}: {error}");
    };
    bad(
        &|o| o.time = Some("01:00:00\nrm -rf ~".into()),
        "--time `01:00:00\\nrm -rf ~`",
    );
    bad(&|o| o.time = Some("1:2:3:4".into()), "Slurm's format");
    bad(
        &|o| o.partition = Some("short\n#SBATCH --mem=1T".into()),
        "--partition",
    );
    bad(&|o| o.partition = Some(String::new()), "--partition");
    bad(&|o| o.shards = 0, "--shards 0");
    bad(
        &|o| o.shards = games as u32 + 1,
        &format!("give 1 to {games}"),
    );
    bad(&|o| o.cpus_per_task = 0, "--cpus-per-task 0");
    bad(
        &|o| o.out_dir = PathBuf::from("results/x\ny"),
        "the output folder",
    );
    assert!(
        arena::slurm::check(
            &exp,
            &arena::slurm::SlurmOptions {
                shards: games as u32,
                ..good.clone()
            }
        )
        .is_ok()
    );
}

/// Writes to `file` until `room` bytes have gone, then fails as a full disk does.
struct FullDisk {
    file: fs::File,
    room: usize,
}

impl std::io::Write for FullDisk {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.room == 0 {
            // ENOSPC: "No space left on device".
            return Err(std::io::Error::from_raw_os_error(28));
        }
        let written = self.file.write(&buf[..buf.len().min(self.room)])?;
        self.room -= written;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

#[test]
fn a_merge_that_runs_out_of_disk_leaves_no_temporary_file_behind() {
    let exp = Experiment::from_toml(EXPERIMENT, "sharded.toml").unwrap();
    let dir = scratch("full-disk");
    for i in 0..2 {
        run(&exp, &options(&dir, shard(i, 2))).unwrap();
    }
    // The folder's files but the lock files (which stay, by design).
    let listing = || {
        let mut names: Vec<PathBuf> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_none_or(|e| e != "lock"))
            .collect();
        names.sort();
        names
    };
    let before = listing();
    for room in [0, 100, 1_000] {
        let error = arena::merge::merge_through(&dir, None, |path, schema| {
            let file = fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .unwrap();
            arena::record::RowWriter::over(path, FullDisk { file, room }, schema, true)
        })
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("games.csv.merging") && error.contains("No space left on device"),
            "{error}"
        );
        assert!(
            !dir.join("games.csv.merging").exists(),
            "left behind at {room} bytes"
        );
        assert_eq!(listing(), before, "nothing made, nothing lost");
    }
    // With room on the disk the merge goes through.
    assert_eq!(merge(&dir).unwrap().games, 18);
    assert!(!dir.join("games.csv.merging").exists());
}

#[test]
fn a_gauntlets_shards_merge_into_its_single_run_csv_whatever_the_threads() {
    let text = EXPERIMENT
        .replace("name = \"sharded\"", "name = \"sharded-gauntlet\"")
        .replace(
            "[[agents]]\nname = \"x\"",
            "format = \"gauntlet\"\n\n[[agents]]\nname = \"x\"",
        )
        .replace(
            "name = \"x\"\nspec = \"random\"",
            "name = \"x\"\nspec = \"random\"\nfield = true",
        )
        + "\n[[agents]]\nname = \"w\"\nspec = \"random\"\n";
    let exp = Experiment::from_toml(&text, "gauntlet.toml").unwrap();
    let single = scratch("gauntlet-single");
    run(&exp, &common::options(&single, 1, Shard::WHOLE)).unwrap();
    let sharded = scratch("gauntlet-parts");
    for i in 0..3 {
        run(&exp, &common::options(&sharded, 2, shard(i, 3))).unwrap();
    }
    let merged = merge(&sharded).unwrap();
    // y, z and w each against x, on both variants, 3 games each.
    assert_eq!(merged.games, 3 * 2 * 3);
    assert_eq!(
        without_timing(&merged.csv),
        without_timing(&single.join("games.csv"))
    );
    let verified = arena::verify(&sharded, None).unwrap();
    assert!(verified.complete(), "{verified:?}");
}
