"""The admin's date formats (settings FORMAT_MODULE_PATH): ISO-like, 24-hour, and every instant
with its zone's name — the admin shows one time zone, Romanian time (TIME_ZONE), and says so
(``EET`` / ``EEST``). Input formats stay Django's."""

DATE_FORMAT = "Y-m-d"
DATETIME_FORMAT = "Y-m-d H:i:s T"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i T"
TIME_FORMAT = "H:i:s"
FIRST_DAY_OF_WEEK = 1  # Monday: the Romanian week of R-34
