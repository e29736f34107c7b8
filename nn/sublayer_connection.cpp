// placeholder: sublayer_connection
