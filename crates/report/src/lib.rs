//! Reads arena CSVs, fits Elo with bootstrap intervals, writes standings, charts and report.md.
