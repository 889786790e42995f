/* Does not compile: mpiguard-cc must fail with the compiler's status. */
int main(void)
{
    return missing_symbol + ;
}
