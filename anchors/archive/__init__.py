"""The archive: dated Wayback snapshots of the anchors' pages (`check --archive`) and new
captures by Save Page Now (`--archive-save`), run as the check's after-check hook.

`wayback` and `savepagenow` speak to the two services, `archiver` is the hook (lookups beside
the check, kept in the history for `fix`), `captures` the Save Page Now part of a run, and
`clients` builds it from the settings; `hook.RunHook` is what a caller of `check` passes as
its `after`, so the check imports nothing of the archive.
"""
