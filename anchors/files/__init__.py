"""How anchors touches the file system: files of the checked repository read under the trust
rules (`repo`), where its own state lives and whether git vouches for it (`state`), and the
atomic writer every file it writes goes through (`atomic`).
"""
