import TetherGtk
