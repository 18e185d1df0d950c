// Only blanks and newlines.
   

	
