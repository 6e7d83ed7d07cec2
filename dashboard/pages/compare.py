"""compare page."""

import streamlit as st

st.title("compare")
