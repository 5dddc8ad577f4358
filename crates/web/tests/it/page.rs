//! The page itself: `index.html` and every script module it loads, followed through their
//! imports from the files in `assets/`, served with a JavaScript type and the page's caching;
//! a module that is not there is a 404.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{Client, results_folder, serve};

/// The relative addresses a script imports (`import ... from "./x.js"`), resolved under `/js/`.
fn imports_of(source: &str) -> Vec<String> {
    source
        .lines()
        .filter(|line| line.starts_with("import "))
        .filter_map(|line| line.split(" from \"./").nth(1))
        .filter_map(|rest| rest.split('"').next())
        .map(|name| format!("/js/{name}"))
        .collect()
}

#[test]
fn every_module_the_page_imports_is_served_as_javascript_and_an_unknown_one_is_404() {
    let results = results_folder("page");
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");

    let index = client.get("/");
    assert_eq!(index.status, 200);
    let entry: Vec<String> = index
        .body
        .split("<script type=\"module\" src=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect();
    assert_eq!(entry, ["/js/main.js"], "the page loads its entry module");

    // Every module reached from the entry, as the browser reaches them.
    let mut todo = entry;
    let mut seen = BTreeSet::new();
    while let Some(address) = todo.pop() {
        if !seen.insert(address.clone()) {
            continue;
        }
        let answer = client.get(&address);
        assert_eq!(answer.status, 200, "{address}: {}", answer.body);
        assert_eq!(
            answer.header("content-type"),
            Some("text/javascript; charset=utf-8"),
            "{address}"
        );
        assert_eq!(
            answer.header("cache-control"),
            Some("no-cache"),
            "{address}"
        );
        let file = assets.join(address.trim_start_matches('/'));
        let source = std::fs::read_to_string(&file).unwrap_or_else(|e| {
            panic!(
                "{address} is served but {} is not read: {e}",
                file.display()
            )
        });
        assert_eq!(
            answer.body, source,
            "{address} is served as its file is now"
        );
        todo.extend(imports_of(&answer.body));
    }
    // Every file of assets/js/ is one the page loads (none forgotten in the served list, none
    // left over).
    let files: BTreeSet<String> = std::fs::read_dir(assets.join("js"))
        .unwrap()
        .map(|entry| format!("/js/{}", entry.unwrap().file_name().to_string_lossy()))
        .filter(|name| name.ends_with(".js"))
        .collect();
    assert_eq!(
        seen, files,
        "the modules reached from the page are the files of assets/js/"
    );
    assert!(seen.contains("/js/play-state.js"), "{seen:?}");

    for unknown in [
        "/js/nothing.js",
        "/js/main.js.map",
        "/js/..%2Fapp.css",
        "/app.js",
    ] {
        let answer = client.get(unknown);
        assert_eq!(answer.status, 404, "{unknown}: {}", answer.body);
        assert!(
            answer.body.contains("no script") || answer.body.contains("no page"),
            "{unknown}: {}",
            answer.body
        );
    }
}
