"""`anchors add`: briefings merged into the registry (`merge`), what the merge gives
(`result`) and what it finds (`findings`).
"""
