-- Evidence files are read through short-lived signed URLs (decision 141): the web app signs for 120 s
-- and renews every 60 s. The storage service now holds every signing of this bucket to that, whatever
-- lifetime a client asks for through the API (decision 154).
update storage.buckets set signed_url_max_seconds = 120 where id = 'scammer-evidence';
