// The server's app/table/changes.py apply_changes, as the game page does it: a view (as
// parsed from JSON) brought up to date by a changes frame, in place.
// (tests/bench/test_load_client.py checks it against the server's view_changes.)
export function applyChanges(view, frame) {
  for (const [path, count] of frame.drop || []) {
    let parent = view;
    for (const step of path) parent = parent[step];
    parent.splice(0, count);
  }
  for (const [path, value] of frame.set) {
    if (path.length === 0) return value;
    let parent = view;
    for (let i = 0; i < path.length - 1; i++) parent = parent[path[i]];
    parent[path[path.length - 1]] = value; // an index one past a list's end appends
  }
  for (const path of frame.unset) {
    let parent = view;
    for (let i = 0; i < path.length - 1; i++) parent = parent[path[i]];
    const last = path[path.length - 1];
    if (Array.isArray(parent)) parent.splice(last, 1);
    else delete parent[last];
  }
  view.version = frame.version;
  return view;
}
