"""bots page."""

import streamlit as st

st.title("bots")
