import sys
import pathlib

# tests/_peers.py lives one level up
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
