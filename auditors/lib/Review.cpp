// PLACEHOLDER: being written (A4); replaced before this lands.
