"""Pure-Python twins of the compiled hot paths.

They define the reference behaviour in tests (compiled == pure on random
input) and keep kafkacodec working, slowly, where the extension cannot load.
"""
