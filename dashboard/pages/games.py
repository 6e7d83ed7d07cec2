"""games page."""

import streamlit as st

st.title("games")
