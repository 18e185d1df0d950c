// Accepted everywhere (exit 0): the PTX has no .entry at all and the manifest lists a
// kernel named "" -- which tile::rt::parseManifest rejects ("field 'name' is empty").
// RUN: tile-translate %s --emit=ptx -o -          (no .entry)
// RUN: tile-translate %s --emit=manifest -o -     ("name": "")
//
// Robustness suite (test/Robustness/robustness.py): the default commands
// and these (expect=error: the tool must refuse the input).
// ROBUST: expect=error tile-translate %s --emit=ptx -o %t/out.ptx
// ROBUST: expect=error tile-translate %s --emit=manifest -o %t/out.json
tile.kernel @""(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
}
