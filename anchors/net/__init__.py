"""HTTP and nothing of citations: the transport and its address guard, retry, redirects,
bounded reads, hosts and their limits, what an answer means, pages and their places, the
cache of answers. The check, the archive and the export speak to the network through it.
"""
