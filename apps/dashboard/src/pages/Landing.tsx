// What a visitor sees first: what the product is, and the way in.
import { Button, Container, Group, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function Landing() {
  return (
    <Container size="sm" py={80} component="main">
      <Stack gap="lg">
        <Title order={1}>Content Platform</Title>
        <Text size="lg">
          Model your content, and every project gets a REST and a GraphQL API that existing Strapi v5 clients call unchanged —
          without running a CMS yourself.
        </Text>
        <List spacing="xs">
          <List.Item>Collection and single types, components, dynamic zones, relations, media and locales</List.Item>
          <List.Item>API tokens, roles and permissions, end users with JWT login</List.Item>
          <List.Item>Hosted on Postgres, fast by design</List.Item>
        </List>
        <Group>
          <Button component={Link} to="/signup" size="md">Sign up</Button>
          <Button component={Link} to="/login" size="md" variant="default">Log in</Button>
          <Button component={Link} to="/docs/api" size="md" variant="subtle">API reference</Button>
        </Group>
      </Stack>
    </Container>
  );
}
