// URLSession interception; see README "URLSession".
