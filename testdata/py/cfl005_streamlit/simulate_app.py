"""A Streamlit app (`streamlit run simulate_app.py`): no main guard, the pool
starts when the button is pressed. A spawn or forkserver child re-importing
the script outside Streamlit gets False from the button: it starts nothing."""
from concurrent.futures import ProcessPoolExecutor

import streamlit as st


def simulate(seed):
    return sum(i * seed for i in range(1000))


seeds = st.slider("runs", 1, 16, 4)
if st.button("Simulate"):
    with ProcessPoolExecutor() as executor:
        st.write(list(executor.map(simulate, range(seeds))))
