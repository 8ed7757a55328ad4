"""The registry file: its model, the streaming loader that keeps every field's span, the splice
writer that leaves untouched bytes alone, atomic replacement under a lock, offline findings.
"""
