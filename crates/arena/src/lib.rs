//! Experiments, seeded round-robin scheduling, parallel play, CSV records and resume.
