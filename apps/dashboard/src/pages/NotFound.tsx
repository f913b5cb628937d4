import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function NotFound() {
  return (
    <Container size="sm" py={80} component="main">
      <Stack>
        <Title order={1}>Page not found</Title>
        <Text>There is nothing at this address.</Text>
        <Button component={Link} to="/" variant="default" w="fit-content">Go to the start page</Button>
      </Stack>
    </Container>
  );
}
