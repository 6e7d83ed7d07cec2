"""simulate page."""

import streamlit as st

st.title("simulate")
