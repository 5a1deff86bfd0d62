"""A module that initializes CUDA when it is imported (the forkserver preloads it)."""
import fakecu

drv = fakecu.Driver("procaddr")
drv.init()  # cfl:init
