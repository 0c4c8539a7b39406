"""The entry point the CRAG evaluator imports: it instantiates `UserModel()`.

The preset comes from env `CRAG_PRESET` (the GPU image sets `t4x4`), else `cpu`.
"""

from models.crag_system import CragSystem

UserModel = CragSystem
