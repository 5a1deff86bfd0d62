"""The same app starting its pool unconditionally: each re-importing child
starts one again while bootstrapping."""
import multiprocessing as mp

import streamlit as st


def simulate(seed):
    return sum(i * seed for i in range(1000))


pool = mp.Pool(2)  # want "CFL005 .*Python 3\\.14–3\\.15 on Linux"
if st.button("Simulate"):
    st.write(pool.map(simulate, range(4)))
