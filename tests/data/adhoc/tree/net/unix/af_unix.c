int a;
int b;
int c;
int d;
int e;
int f;
int g;
