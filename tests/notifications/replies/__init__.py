"""A corpus of answers to turn emails written the way real mail clients write them (Gmail,
Apple Mail, Outlook, Thunderbird, Yahoo, Proton, K-9, Samsung, Exchange auto-replies), in many
languages and character sets, each with the outcome it must have. `clients` builds the RFC 822
bytes with the standard library's email package; `corpus` lists the cases."""
